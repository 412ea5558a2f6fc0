import { ApiProperty } from '@nestjs/swagger';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';
import { DO_NOT_CALL_SOURCES, DoNotCallEntry, DoNotCallSource } from './do-not-call-entry.entity';

/** A number on the do-not-call ledger (extension, docs/contracts/dialer.md). */
export class DoNotCallEntryResponse {
  @ApiProperty({ example: '+14155550199', description: 'E.164' }) number: string;
  @ApiProperty({ type: String, nullable: true, example: 'Asked not to be called' }) reason: string | null;
  @ApiProperty({
    enum: DO_NOT_CALL_SOURCES,
    description: '`api`: this API; `message`: the contact sent STOP (or a variant) in a chat; `console`: the dashboard',
  })
  source: DoNotCallSource;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiLivemode() livemode: boolean;

  static from(e: DoNotCallEntry): DoNotCallEntryResponse {
    return {
      number: e.number,
      reason: e.reason,
      source: e.source,
      createdAt: e.createdAt.toISOString(),
      livemode: e.livemode,
    };
  }
}
