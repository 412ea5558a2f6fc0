import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CampaignResponse } from './campaign.response';
import type { PreflightResult } from './audience-preflight';

export class RefusedRowResponse {
  @ApiProperty({ example: 13, description: '0-based index of the row in the audience' }) row: number;
  @ApiProperty({
    example: 'variableValues.date',
    description: 'The field of the row refused (`to`, `variableValues.<name>`)',
  })
  field: string;
  @ApiProperty({ example: 'required by the case' }) message: string;
}

/** What creating a campaign answers: the Campaign, and what the audience's preflight left out (extension). */
export class CreatedCampaignResponse extends CampaignResponse {
  @ApiProperty({
    example: 0,
    description:
      'Extension: rows left out because an earlier accepted row has the same number (a number is called once per campaign)',
  })
  duplicatesRemoved: number;
  @ApiPropertyOptional({
    type: [RefusedRowResponse],
    description: 'Extension, only with `skipInvalidRows: true`: the rows refused and not stored, each with the reason',
  })
  refusedRows?: RefusedRowResponse[];

  static of<T extends CampaignResponse>(campaign: T, preflight: PreflightResult, skipInvalidRows?: boolean) {
    return {
      ...campaign,
      duplicatesRemoved: preflight.duplicatesRemoved,
      ...(skipInvalidRows ? { refusedRows: preflight.refusedRows } : {}),
    };
  }
}
