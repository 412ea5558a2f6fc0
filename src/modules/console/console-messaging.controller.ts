import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiError } from '../../common/errors/api-error';
import { Page } from '../../common/pagination/pagination.dto';
import { ConversationDetailResponse, ConversationResponse } from '../messaging/conversation.response';
import { ConversationsService } from '../messaging/conversations.service';
import { ListConversationsQueryDto } from '../messaging/dto/list-conversations.dto';
import { SendMessageCommand } from '../messaging/send-message.command';
import { SendMessageResponse } from '../messaging/send-message.response';
import { MessagingAccountResponse } from '../messaging/messaging-account.response';
import { MAX_TEMPLATES_LISTED, MessagingAccountsService } from '../messaging/messaging-accounts.service';
import { ApiSendMessageBody } from '../messaging/dto/api-send-message-body';
import { SendMessageBodyPipe } from '../messaging/dto/send-message-body.pipe';
import { SendMessageDto } from '../messaging/dto/send-message.dto';
import { MessagingTemplateResponse } from '../messaging/messaging-template.response';
import { World } from '../../common/auth/world';
import { ConversationMove } from '../messaging/conversation-transitions';
import { ConversationMovesCommand } from '../messaging/chat-agent/conversation-moves.command';
import { MOVE_DOCS } from '../messaging/chat-agent/conversation-moves.controller';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

@ApiTags('Messaging')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/messaging')
export class ConsoleMessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly conversations: ConversationsService,
    private readonly sendMessage: SendMessageCommand,
    private readonly moves: ConversationMovesCommand,
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

  @Post('conversations/:id/hand-off')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminHandOffConversation',
    summary: 'Hand a conversation of the chosen world to a person (POST /api/v1/messaging/conversations/{id}/hand-off)',
    description: MOVE_DOCS,
  })
  @ApiDataResponse(ConversationResponse)
  @ApiAdminErrors('INVALID_STATE')
  handOff(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'hand-off');
  }

  @Post('conversations/:id/close')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminCloseConversation',
    summary: 'Close a conversation of the chosen world (POST /api/v1/messaging/conversations/{id}/close)',
    description: MOVE_DOCS,
  })
  @ApiDataResponse(ConversationResponse)
  @ApiAdminErrors('INVALID_STATE')
  close(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'close');
  }

  @Post('conversations/:id/reopen')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminReopenConversation',
    summary:
      'Give a conversation of the chosen world back to the bot (POST /api/v1/messaging/conversations/{id}/reopen)',
    description: MOVE_DOCS,
  })
  @ApiDataResponse(ConversationResponse)
  @ApiAdminErrors('INVALID_STATE')
  reopen(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'reopen');
  }

  @Get('accounts/:id/templates')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminListApprovedTemplates',
    summary: `The account's APPROVED templates by name and language (at most ${MAX_TEMPLATES_LISTED}), for a reply outside the 24-hour window`,
  })
  @ApiDataResponse(MessagingTemplateResponse, { isArray: true })
  @ApiAdminErrors()
  async templates(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    const templates = await this.accounts.approvedTemplatesOf(world, id);
    if (!templates) throw ApiError.notFound('Messaging account');
    return { data: templates.map(MessagingTemplateResponse.from) };
  }

  @Post('messages')
  @HttpCode(201)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminSendMessage',
    summary:
      'Reply in a conversation of the chosen world: a text inside the 24-hour window, a template any time (POST /api/v1/messaging/messages)',
  })
  @ApiSendMessageBody()
  @ApiDataResponse(SendMessageResponse, { status: 201 })
  @ApiAdminErrors('TEMPLATE_NOT_FOUND', 'SESSION_EXPIRED', 'MESSAGING_API_ERROR')
  async send(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Body(SendMessageBodyPipe) body: SendMessageDto,
  ): Promise<{ data: SendMessageResponse }> {
    // Whatever the console sends is a person's message, told apart from the bot's.
    return { data: await this.sendMessage.execute(world, body, 'agent') };
  }

  private async move(world: World, id: string, move: ConversationMove): Promise<{ data: ConversationResponse }> {
    return { data: ConversationResponse.from(await this.moves.byHand(world, id, move)) };
  }
}
