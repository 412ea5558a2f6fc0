import { ApiProperty } from '@nestjs/swagger';
import { ANSWERED_BY } from '../call-outcomes/answered-by';
import { VOICE_PLATFORMS, VoicePlatform } from '../../infra/config/platforms';
import type { ConfusionMatrix, PlatformDetection } from './confusion-matrix';

export class PlatformDetectionResponse {
  @ApiProperty({ enum: VOICE_PLATFORMS }) platform: VoicePlatform;
  @ApiProperty({ example: 40, description: 'Labelled calls counted' }) labelled: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
    example: {
      human: { human: 20, voicemail: 1, screener: 0, unknown: 1 },
      voicemail: { human: 2, voicemail: 12, screener: 0, unknown: 1 },
      screener: { human: 2, voicemail: 0, screener: 0, unknown: 0 },
      unknown: { human: 0, voicemail: 0, screener: 0, unknown: 1 },
    },
    description:
      'Calls by label (outer key: what a person heard) and by what the platform detected (inner key: the ' +
      "call's `answeredBy`; a call with none counts as `unknown`). " +
      `Every outcome (${ANSWERED_BY.join(', ')}) is present on both axes.`,
  })
  matrix: ConfusionMatrix;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.8,
    description: 'Labelled voicemail among calls detected voicemail (0-1); null when none was detected voicemail',
  })
  voicemailPrecision: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.8,
    description:
      'Detected voicemail among calls labelled voicemail (0-1; detected `unknown` is a miss); null when none ' +
      'was labelled voicemail',
  })
  voicemailRecall: number | null;
}

/** GET /api/v1/reports/answer-detection (extension). */
export class AnswerDetectionReportResponse {
  @ApiProperty({
    type: PlatformDetectionResponse,
    isArray: true,
    description: 'One entry per platform with at least one labelled call matching the filters, by name',
  })
  platforms: PlatformDetection[];
}
