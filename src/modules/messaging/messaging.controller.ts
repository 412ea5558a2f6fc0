import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { ConversationDetailResponse, ConversationResponse } from './conversation.response';
import { ConversationsService } from './conversations.service';
import { ListConversationsQueryDto } from './dto/list-conversations.dto';
import { SendMessageBodyPipe } from './dto/send-message-body.pipe';
import { ApiSendMessageBody } from './dto/api-send-message-body';
import { SendMessageDto } from './dto/send-message.dto';
import { MessageEventDataResponse } from './message.response';
import { MessagingMediaService } from './messaging-media.service';
import { MessagingAccountResponse } from './messaging-account.response';
import { MAX_MESSAGING_ACCOUNTS, MessagingAccountsService } from './messaging-accounts.service';
import { SendMessageCommand } from './send-message.command';
import { SendMessageResponse } from './send-message.response';

@ApiTags('Messaging')
// The message.* webhook events carry this shape (openapi x-webhooks).
@ApiExtraModels(MessageEventDataResponse)
@Controller('api/v1/messaging')
export class MessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly conversations: ConversationsService,
    private readonly sendMessage: SendMessageCommand,
    private readonly media: MessagingMediaService,
  ) {}

  @Get('accounts')
  @RequireScope('messaging:read')
  @ApiOperation({
    operationId: 'listMessagingAccounts',
    summary: 'Connected messaging accounts (not paginated)',
    description: `Not paginated: an organization has at most ${MAX_MESSAGING_ACCOUNTS} messaging accounts (the dashboard's connect refuses one more with 422 MAX_MESSAGING_ACCOUNTS, an extension).`,
  })
  @ApiDataResponse(MessagingAccountResponse, { isArray: true })
  async listAccounts(@KeyWorld() world: World): Promise<{ data: MessagingAccountResponse[] }> {
    return { data: (await this.accounts.list(world)).map(MessagingAccountResponse.from) };
  }

  @Get('conversations')
  @RequireScope('messaging:read')
  @ApiOperation({ operationId: 'listConversations', summary: 'Conversations, most recent activity first' })
  @ApiPageResponse(ConversationResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  listConversations(
    @KeyWorld() world: World,
    @Query() query: ListConversationsQueryDto,
  ): Promise<Page<ConversationResponse>> {
    return this.conversations.list(world, query);
  }

  @Get('conversations/:id')
  @RequireScope('messaging:read')
  @ApiOperation({ operationId: 'getConversation', summary: 'One conversation with its 50 most recent messages' })
  @ApiDataResponse(ConversationDetailResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async getConversation(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: ConversationDetailResponse }> {
    return { data: await this.conversations.get(world, id) };
  }

  @Post('messages')
  @HttpCode(201)
  @RequireScope('messaging:write')
  // A send whose answer was lost is retried safely: the retry gets the stored message, never a second send.
  @Idempotent()
  @ApiOperation({
    operationId: 'sendMessage',
    summary: 'Send a text or media (inside the 24-hour window) or an approved template (any time)',
    description:
      'Media types (`image`, `audio`, `video`, `document`, `sticker`) and template `header`/`buttons` are extensions. ' +
      "The provider's refusals: 422 SESSION_EXPIRED (WhatsApp 131047) and MESSAGE_UNDELIVERABLE (131026, 131049, " +
      '131062), 422 TEMPLATE_INVALID (132000, 132001, 132015, 132016), each with the provider code in ' +
      '`details[].providerCode`. The message is stored before the provider is asked; a send that must wait (pacing per sending number and per ' +
      "recipient, rate limits 130429 / 131056 / 4 / 80007, Meta's transient errors 1 / 2 / 131000 / 131016, or no " +
      'answer from Meta) is answered 201 with the stored message still `accepted`, sent by the send queue later, and ' +
      "ends in `message.sent` or `message.failed` with Meta's code (extension). 502 MESSAGING_API_ERROR for the rest " +
      '(an expired token, 190, and account problems 131031 / 131042 / 131048 / 133010 name the account), with the ' +
      'provider code in details whenever it gave one.',
  })
  @ApiSendMessageBody()
  @ApiDataResponse(SendMessageResponse, { status: 201 })
  @ApiErrors(
    'VALIDATION_ERROR',
    'NOT_FOUND',
    'TEMPLATE_NOT_FOUND',
    'SESSION_EXPIRED',
    'TEMPLATE_INVALID',
    'MESSAGE_UNDELIVERABLE',
    'MESSAGING_API_ERROR',
  )
  async send(
    @KeyWorld() world: World,
    @Body(SendMessageBodyPipe) body: SendMessageDto,
  ): Promise<{ data: SendMessageResponse }> {
    return { data: await this.sendMessage.execute(world, body) };
  }

  @Get('messages/:id/media')
  @RequireScope('messaging:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getMessageMedia',
    summary: "Stream a message's media file from the provider (extension)",
    description:
      "The file of an inbound image, audio, video, document or sticker (a message's `mediaUrl`), fetched from the " +
      "provider with the account's token and streamed, never stored. At most WHATSAPP_MEDIA_MAX_BYTES (default " +
      "100 MiB, WhatsApp's own ceiling): a larger file is 422 MEDIA_TOO_LARGE. 404 when the message has no media or " +
      "the provider no longer keeps it (WhatsApp keeps inbound media for 30 days). A test message's media is the " +
      "simulator's placeholder file (the provider is never asked); 502 MESSAGING_API_ERROR when the provider names a " +
      'file location the outbound URL rules refuse.',
  })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({
    description: "The file, with the provider's Content-Type",
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'MEDIA_TOO_LARGE', 'MESSAGING_API_ERROR')
  async getMedia(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.media.open(world, id);
    void reply.header('content-type', file.contentType);
    // The file is the user's: a browser must save it, never render it as one of our pages.
    void reply.header('content-disposition', 'attachment');
    if (file.length !== null) void reply.header('content-length', String(file.length));
    await reply.send(file.body);
  }
}
