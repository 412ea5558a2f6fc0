import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, NotEquals } from 'class-validator';

export const GRANT_TYPES = ['addon_purchase', 'coupon_redemption', 'admin_adjustment'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export class MinuteGrantDto {
  /** Positive adds carry-forward minutes; negative (admin_adjustment only) removes free minutes. */
  @IsInt() @Min(-100_000) @Max(100_000) @NotEquals(0) mins: number;
  @IsIn(GRANT_TYPES) type: GrantType;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
}
