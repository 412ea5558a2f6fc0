import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
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
import { MessagingAccountResponse } from './messaging-account.response';
import { MAX_MESSAGING_ACCOUNTS, MessagingAccountsService } from './messaging-accounts.service';
import { SendMessageCommand } from './send-message.command';
import { SendMessageResponse } from './send-message.response';

@ApiTags('Messaging')
@Controller('api/v1/messaging')
export class MessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly conversations: ConversationsService,
    private readonly sendMessage: SendMessageCommand,
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
  @ApiOperation({
    operationId: 'sendMessage',
    summary: 'Send a text (inside the 24-hour window) or an approved template (any time)',
  })
  @ApiSendMessageBody()
  @ApiDataResponse(SendMessageResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'SESSION_EXPIRED', 'MESSAGING_API_ERROR')
  async send(
    @KeyWorld() world: World,
    @Body(SendMessageBodyPipe) body: SendMessageDto,
  ): Promise<{ data: SendMessageResponse }> {
    return { data: await this.sendMessage.execute(world, body) };
  }
}
