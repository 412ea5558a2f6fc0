import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';
import { CONVERSATION_STATUSES, ConversationStatus } from '../conversation.entity';

export class ListConversationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CONVERSATION_STATUSES })
  @IsOptional()
  @IsIn(CONVERSATION_STATUSES)
  status?: ConversationStatus;
}
