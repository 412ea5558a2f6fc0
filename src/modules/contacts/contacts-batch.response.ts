import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorBodyDto } from '../../common/openapi/error-envelope.dto';

export const BATCH_ROW_STATUSES = ['created', 'exists', 'refused'] as const;
export type BatchRowStatus = (typeof BATCH_ROW_STATUSES)[number];

/** What became of one row of POST /contacts/batch, in the order given. */
export class ContactsBatchRowResponse {
  @ApiProperty({ example: 0, description: '0-based index of the row in `contacts`' }) row: number;
  @ApiProperty({
    enum: BATCH_ROW_STATUSES,
    description:
      '`created`; `exists` when the world already had a contact with this phone (an earlier row of the batch ' +
      'included; nothing changed); `refused` with the error POST /contacts would have answered',
  })
  status: BatchRowStatus;
  @ApiPropertyOptional({ format: 'uuid', description: 'The contact created, or the one that has the phone' })
  id?: string;
  @ApiPropertyOptional({ type: ErrorBodyDto, description: 'Why the row was refused (`details` name its fields)' })
  error?: ErrorBodyDto;
}
