import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, NotEquals } from 'class-validator';

export const GRANT_TYPES = ['addon_purchase', 'coupon_redemption', 'admin_adjustment'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export class MinuteGrantDto {
  @ApiProperty({
    type: 'integer',
    minimum: -100_000,
    maximum: 100_000,
    example: 500,
    description: 'Positive adds carry-forward minutes; negative (admin_adjustment only) removes free minutes; never 0',
  })
  @IsInt()
  @Min(-100_000)
  @Max(100_000)
  @NotEquals(0)
  mins: number;
  @ApiProperty({ enum: GRANT_TYPES, example: 'addon_purchase', description: 'The ledger row type written' })
  @IsIn(GRANT_TYPES)
  type: GrantType;
  @ApiPropertyOptional({
    maxLength: 500,
    example: 'Add-on pack: 500 minutes',
    description: 'Ledger row description; default e.g. `Minutes purchased: +500 minutes`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}
