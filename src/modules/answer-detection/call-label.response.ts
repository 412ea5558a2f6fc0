import { ApiProperty } from '@nestjs/swagger';
import { ANSWERED_BY, AnsweredBy } from '../call-outcomes/answered-by';
import { CallLabel } from './call-label.entity';

/** A person's verdict on a call (extension, docs/answer-detection.md). */
export class CallLabelResponse {
  @ApiProperty({ format: 'uuid' }) callId: string;
  @ApiProperty({ enum: ANSWERED_BY, description: 'Who a person heard answer' }) answeredBy: AnsweredBy;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the label was last set' }) labelledAt: string;

  static from(label: CallLabel): CallLabelResponse {
    return {
      callId: label.callId,
      answeredBy: label.answeredBy,
      note: label.note,
      labelledAt: label.updatedAt.toISOString(),
    };
  }
}
