import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../../common/auth/access.decorators';
import { IdParamPipe } from '../../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../../common/openapi/api-errors.decorator';
import { MessagingAccountsService } from '../messaging-accounts.service';
import { ChatAgentResponse } from './chat-agent.response';
import { ChatAgentsService } from './chat-agents.service';
import { PutChatAgentDto } from './put-chat-agent.dto';

const AGENT_DOCS =
  "The account's chat agent: with `enabled`, each inbound text from a user on an `active` conversation gets one " +
  "bot reply (test accounts: the simulator; live accounts: the voice platform's chat API with the case's prompt " +
  "and the assistant's model). A hand-off keyword (whole word, any case) or `maxBotReplies` replies in a row hand " +
  'the conversation to a person. An account never set answers with the defaults and `enabled: false`.';

/** The dashboard sets each messaging account's chat agent (README "Chat agent"). */
@AdminOnly()
@ApiTags('Messaging')
@Controller('admin/v1/messaging-accounts/:id/chat-agent')
export class AdminChatAgentController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly agents: ChatAgentsService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'adminGetChatAgent',
    summary: "A messaging account's chat agent",
    description: AGENT_DOCS,
  })
  @ApiDataResponse(ChatAgentResponse)
  @ApiAdminErrors()
  async get(@Param('id', IdParamPipe) id: string): Promise<{ data: ChatAgentResponse }> {
    return { data: ChatAgentResponse.from(await this.agents.get(await this.accounts.mustExist(id))) };
  }

  @Put()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminPutChatAgent',
    summary: "Set a messaging account's chat agent (omitted fields take their defaults)",
    description: `${AGENT_DOCS} A \`caseId\` or \`assistantConfigId\` of another organization is 400 VALIDATION_ERROR.`,
  })
  @ApiDataResponse(ChatAgentResponse)
  @ApiAdminErrors()
  async put(@Param('id', IdParamPipe) id: string, @Body() dto: PutChatAgentDto): Promise<{ data: ChatAgentResponse }> {
    return { data: ChatAgentResponse.from(await this.agents.put(await this.accounts.mustExist(id), dto)) };
  }
}
