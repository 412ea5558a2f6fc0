import { ApiProperty } from '@nestjs/swagger';
import { NUMBER_HEALTH_STATUSES, NumberHealthStatus } from './number-health.entity';
import type { NumberDayRow } from './number-health.repository';

export class NumberHealthDayResponse {
  @ApiProperty({ format: 'date', example: '2026-11-30', description: 'The UTC day' }) date: string;
  @ApiProperty({ example: 120, description: 'Outbound calls from the number that ended that day' }) placed: number;
  @ApiProperty({ example: 48, description: 'Calls a person answered (`answeredBy: human`)' }) human: number;
  @ApiProperty({ example: 30, description: 'Calls a voicemail answered' }) voicemail: number;
  @ApiProperty({ example: 40, description: 'Calls nobody answered (ended without `answeredBy`)' })
  notAnswered: number;
  @ApiProperty({ example: 2, description: 'Calls that failed (status `error`)' }) failed: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.4, description: 'human / placed (0-1); null without calls' })
  answerRate: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 61.5,
    description: 'Mean talk time of the calls someone or something picked up; null when none was',
  })
  avgTalkSeconds: number | null;

  static from(d: NumberDayRow): NumberHealthDayResponse {
    return {
      date: d.day,
      placed: d.placed,
      human: d.human,
      voicemail: d.voicemail,
      notAnswered: d.notAnswered,
      failed: d.failed,
      answerRate: d.placed === 0 ? null : d.human / d.placed,
      avgTalkSeconds: d.connected === 0 ? null : d.talkSeconds / d.connected,
    };
  }
}

/** GET /api/v1/phone-numbers/{id}/health (extension, docs/number-health.md). */
export class NumberHealthResponse {
  @ApiProperty({ description: 'E.164', example: '+14155550100' }) number: string;
  @ApiProperty({
    // A copy: the OpenAPI scanner may add to the array it is given.
    enum: [...NUMBER_HEALTH_STATUSES],
    description:
      '`degraded` when the answer rate of the last 50 placed calls (at least 50) is below half of the ' +
      "number's own 30-day answer rate, `watch` below three quarters, else `healthy`",
  })
  status: NumberHealthStatus;
  @ApiProperty({
    type: NumberHealthDayResponse,
    isArray: true,
    description: 'Only the days that had calls, oldest first',
  })
  days: NumberHealthDayResponse[];
}
