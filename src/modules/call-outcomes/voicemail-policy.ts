import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Length, ValidateIf, ValidateNested } from 'class-validator';

export const VOICEMAIL_ACTIONS = ['hang-up', 'leave-message'] as const;
export type VoicemailAction = (typeof VOICEMAIL_ACTIONS)[number];
/** Characters of a voicemail message, before and after its `{{variables}}` are filled in (docs/tools.md). */
export const VOICEMAIL_MESSAGE_MAX = 1000;

/** What a call does when an answering machine picks up (docs/tools.md, "Voicemail"). */
export interface VoicemailPolicy {
  detect: boolean;
  action: VoicemailAction;
  /** The message to leave (`leave-message` only); on a call, rendered with the call's variables. */
  message: string | null;
}

/** The policy on a call when nothing sets one: detect answering machines and hang up (leave nothing). */
export const DEFAULT_VOICEMAIL_POLICY: VoicemailPolicy = Object.freeze({
  detect: true,
  action: 'hang-up',
  message: null,
});

/** `voicemail` on outbound assistants, cases and campaigns (extension). */
export class VoicemailPolicyDto {
  @ApiPropertyOptional({ default: true, description: 'Detect answering machines' })
  @IsOptional()
  @IsBoolean()
  detect?: boolean;

  @ApiPropertyOptional({ enum: VOICEMAIL_ACTIONS, default: 'hang-up' })
  @IsOptional()
  @IsIn(VOICEMAIL_ACTIONS)
  action?: VoicemailAction;

  @ApiPropertyOptional({
    maxLength: VOICEMAIL_MESSAGE_MAX,
    description:
      'The message left on the machine; `{{variables}}` are filled in like firstMessage, and the rendered text ' +
      `is at most ${VOICEMAIL_MESSAGE_MAX} characters too. Required with \`leave-message\`.`,
  })
  @ValidateIf((p: VoicemailPolicyDto) => p.action === 'leave-message' || p.message !== undefined)
  @IsString({ message: 'message is required with action leave-message' })
  @Length(1, VOICEMAIL_MESSAGE_MAX)
  message?: string;
}

/** An optional `voicemail` field of a request body (outbound assistants, cases, campaigns); `owner` names whose. */
export function VoicemailPolicyField(owner: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: VoicemailPolicyDto,
      description:
        `Extension: what ${owner} calls do on reaching an answering machine (docs/tools.md); the most specific ` +
        'of campaign, case and assistant wins',
    }),
    IsOptional(),
    ValidateNested(),
    Type(() => VoicemailPolicyDto),
  );
}

/** The stored form of a policy given through the API (defaults filled in). */
export function voicemailPolicyOf(dto: VoicemailPolicyDto): VoicemailPolicy {
  return { detect: dto.detect ?? true, action: dto.action ?? 'hang-up', message: dto.message ?? null };
}

/** The policy that applies to a call: the most specific one set wins (campaign, case, assistant), else the default. */
export function effectiveVoicemailPolicy(
  ...fromMostSpecific: Array<VoicemailPolicy | null | undefined>
): VoicemailPolicy {
  return fromMostSpecific.find((p): p is VoicemailPolicy => !!p) ?? DEFAULT_VOICEMAIL_POLICY;
}

/** The API representation of a stored policy. */
export class VoicemailPolicyResponse {
  @ApiPropertyOptional({ description: 'Detect answering machines' }) detect: boolean;
  @ApiPropertyOptional({ enum: VOICEMAIL_ACTIONS }) action: VoicemailAction;
  @ApiPropertyOptional({ type: String, nullable: true }) message: string | null;
}
