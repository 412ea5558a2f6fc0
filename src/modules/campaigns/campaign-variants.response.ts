import { ApiProperty } from '@nestjs/swagger';
import type { CaseVersionTotals } from '../calls/calls.repository';
import { CampaignVariant, twoProportionPValue } from './campaign-variants';

/** One variant of an A/B campaign with what its calls did so far. */
export class CampaignVariantReportResponse {
  @ApiProperty({ example: 2 }) caseVersion: number;
  @ApiProperty({ example: 50 }) weight: number;
  @ApiProperty({ description: 'Entries assigned this variant' }) entries: number;
  @ApiProperty({ description: 'Calls placed with this version (every attempt)' }) calls: number;
  @ApiProperty({ description: 'Calls answered by a person (`answeredBy: human`)' }) answered: number;
  @ApiProperty({ description: 'Calls that reached voicemail' }) voicemail: number;
  @ApiProperty({ description: 'Calls whose analysis judged them a success' }) successTrue: number;
  @ApiProperty({ description: 'Calls whose analysis judged them not a success' }) successFalse: number;
  @ApiProperty({ example: 12.25, description: 'Exact talk time of its calls, in minutes (not rounded up)' })
  talkMinutes: number;
  @ApiProperty({ example: 0.42, description: 'What the voice platform reported its calls cost, in USD' })
  providerCostUsd: number;
}

/** Extension (docs/testing-your-assistant.md, "A/B"): a campaign's variants side by side. */
export class CampaignVariantsResponse {
  @ApiProperty({ type: [CampaignVariantReportResponse], description: 'Empty for a campaign without variants' })
  variants: CampaignVariantReportResponse[];
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.0337,
    description:
      'With two variants, the two-sided p-value of the two-proportion z-test on successTrue / (successTrue + ' +
      'successFalse): below 0.05, the difference is unlikely to be chance. Null with more or fewer variants, or ' +
      'while a side has no judged call or every judged call went the same way',
  })
  pValue: number | null;

  static from(
    variants: readonly CampaignVariant[],
    entries: ReadonlyArray<{ caseVersion: number | null; entries: number }>,
    totals: readonly CaseVersionTotals[],
  ): CampaignVariantsResponse {
    const rows = variants.map((v) => {
      const t = totals.find((row) => row.caseVersion === v.caseVersion);
      return {
        caseVersion: v.caseVersion,
        weight: v.weight,
        entries: entries.find((row) => row.caseVersion === v.caseVersion)?.entries ?? 0,
        calls: t?.calls ?? 0,
        answered: t?.answered ?? 0,
        voicemail: t?.voicemail ?? 0,
        successTrue: t?.successTrue ?? 0,
        successFalse: t?.successFalse ?? 0,
        talkMinutes: (t?.talkSeconds ?? 0) / 60,
        providerCostUsd: t?.providerCostUsd ?? 0,
      };
    });
    const [a, b] = rows;
    const pValue =
      rows.length === 2
        ? twoProportionPValue(
            a.successTrue,
            a.successTrue + a.successFalse,
            b.successTrue,
            b.successTrue + b.successFalse,
          )
        : null;
    return { variants: rows, pValue };
  }
}
