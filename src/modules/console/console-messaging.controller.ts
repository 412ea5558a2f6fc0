import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { ConversationDetailResponse, ConversationResponse } from '../messaging/conversation.response';
import { ConversationsService } from '../messaging/conversations.service';
import { ListConversationsQueryDto } from '../messaging/dto/list-conversations.dto';
import { PersonReplyDto } from '../messaging/dto/person-reply.dto';
import { SendMessageCommand } from '../messaging/send-message.command';
import { SendMessageResponse } from '../messaging/send-message.response';
import { MessagingAccountResponse } from '../messaging/messaging-account.response';
import { MessagingAccountsService } from '../messaging/messaging-accounts.service';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

@ApiTags('Messaging')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/messaging')
export class ConsoleMessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly conversations: ConversationsService,
    private readonly sendMessage: SendMessageCommand,
  ) {}

  @Get('accounts')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminListMessagingAccounts', summary: 'Connected messaging accounts' })
  @ApiDataResponse(MessagingAccountResponse, { isArray: true })
  @ApiAdminErrors()
  async listAccounts(@ConsoleWorld(ExistingWorldPipe) world: World) {
    return { data: (await this.accounts.list(world)).map(MessagingAccountResponse.from) };
  }

  @Get('conversations')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminListConversations', summary: 'Conversations, most recent activity first' })
  @ApiPageResponse(ConversationResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: ListConversationsQueryDto,
  ): Promise<Page<ConversationResponse>> {
    return this.conversations.list(world, query);
  }

  @Get('conversations/:id')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminGetConversation', summary: 'One conversation with its messages' })
  @ApiDataResponse(ConversationDetailResponse)
  @ApiAdminErrors()
  async get(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return { data: await this.conversations.get(world, id) };
  }

  @Post('conversations/:id/messages')
  @HttpCode(201)
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminReplyToConversation',
    summary: "A person's text reply in a conversation (senderType `agent`)",
    description:
      'Sent like any text (the 24-hour window, test mode and the provider apply; the same errors as ' +
      '`POST /api/v1/messaging/messages`) and stored with senderType `agent`, so a reader tells it from the bot.',
  })
  @ApiDataResponse(SendMessageResponse, { status: 201 })
  @ApiAdminErrors('SESSION_EXPIRED', 'MESSAGE_UNDELIVERABLE', 'MESSAGING_API_ERROR')
  async reply(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: PersonReplyDto,
  ): Promise<{ data: SendMessageResponse }> {
    return {
      data: await this.sendMessage.execute(world, { type: 'text', conversationId: id, text: dto.text }, 'agent'),
    };
  }
}
