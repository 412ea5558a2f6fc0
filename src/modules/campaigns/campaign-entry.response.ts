import { ApiProperty } from '@nestjs/swagger';
import { CampaignAttempt } from './campaign-attempt.entity';
import { CampaignEntry, ENTRY_STATUSES, EntryStatus } from './campaign-entry.entity';

export class CampaignAttemptResponse {
  @ApiProperty({ format: 'uuid', description: 'The call placed (GET /api/v1/calls/{id})' }) callId: string;
  @ApiProperty({ type: String, nullable: true, description: 'null while the call is in progress' })
  endedReason: string | null;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class CampaignEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '+14155550187' }) to: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) contactId: string | null;
  @ApiProperty({ enum: ENTRY_STATUSES }) status: EntryStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'DO_NOT_CALL',
    description:
      'Why a skipped entry was not called: DO_NOT_CALL, DESTINATION_NOT_ALLOWED, or the error code that made its call impossible',
  })
  skipReason: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'variableValues.date: required case variable "date" has no value (variableValues, contact or default)',
    description:
      'Extension: a sentence beside `skipReason` naming the field or rule that made the entry impossible to call',
  })
  skipDetail: string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'A pending entry is not called before this time' })
  nextAttemptAt: string;
  @ApiProperty({ type: String, description: 'IANA zone its calling window is evaluated in' }) timeZone: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Extension: the case version its variant assigned (A/B); null: the case's current version",
  })
  caseVersion: number | null;
  @ApiProperty({ type: [CampaignAttemptResponse] }) attempts: CampaignAttemptResponse[];

  static from(
    e: CampaignEntry,
    attempts: ReadonlyArray<Pick<CampaignAttempt, 'callId' | 'endedReason' | 'at'>>,
  ): CampaignEntryResponse {
    return {
      id: e.id,
      to: e.to,
      contactId: e.contactId,
      status: e.status,
      skipReason: e.skipReason,
      skipDetail: e.skipDetail,
      nextAttemptAt: e.nextAttemptAt.toISOString(),
      timeZone: e.timeZone,
      caseVersion: e.caseVersion,
      attempts: attempts.map((a) => ({ callId: a.callId, endedReason: a.endedReason, at: a.at.toISOString() })),
    };
  }
}
