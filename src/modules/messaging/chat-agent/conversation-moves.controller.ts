import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../../common/auth/access.decorators';
import { KeyWorld, World } from '../../../common/auth/world';
import { IdParamPipe } from '../../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../../common/openapi/api-extension.decorator';
import { ConversationResponse } from '../conversation.response';
import { ConversationMove } from '../conversation-transitions';
import { ConversationMovesCommand } from './conversation-moves.command';

export const MOVE_DOCS =
  'Extension. Conversation states: `active` (the chat agent answers, when the account has it on), `handed_off` ' +
  '(a person answers; the bot is silent) and `closed`. Moves: hand-off from `active`; close from `active` or ' +
  '`handed_off`; reopen from `handed_off` or `closed` (back to `active`, the bot-reply count starting afresh). ' +
  'Any other move is 422 INVALID_STATE. A hand-off sends the `conversation.handed_off` webhook event.';

/** Moving a conversation by hand (README "Chat agent"); the agent moves it through the same command. */
@ApiTags('Messaging')
@Controller('api/v1/messaging/conversations')
export class ConversationMovesController {
  constructor(private readonly moves: ConversationMovesCommand) {}

  @Post(':id/hand-off')
  @HttpCode(200)
  @RequireScope('messaging:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'handOffConversation',
    summary: 'Hand a conversation to a person',
    description: MOVE_DOCS,
  })
  @ApiDataResponse(ConversationResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  handOff(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'hand-off');
  }

  @Post(':id/close')
  @HttpCode(200)
  @RequireScope('messaging:write')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'closeConversation', summary: 'Close a conversation', description: MOVE_DOCS })
  @ApiDataResponse(ConversationResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  close(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'close');
  }

  @Post(':id/reopen')
  @HttpCode(200)
  @RequireScope('messaging:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'reopenConversation',
    summary: 'Give a conversation back to the bot',
    description: MOVE_DOCS,
  })
  @ApiDataResponse(ConversationResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  reopen(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string) {
    return this.move(world, id, 'reopen');
  }

  private async move(world: World, id: string, move: ConversationMove): Promise<{ data: ConversationResponse }> {
    return { data: ConversationResponse.from(await this.moves.byHand(world, id, move)) };
  }
}
