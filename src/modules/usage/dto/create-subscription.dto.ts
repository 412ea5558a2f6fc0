import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { PRODUCT_TYPES, ProductType } from '../entities/subscription.entity';

export class CreateSubscriptionDto {
  @IsIn(PRODUCT_TYPES) productType: ProductType;
  /** Required for a paid outreach item. */
  @ValidateIf((o: CreateSubscriptionDto) => o.productType === 'outreach' && !o.complimentary)
  @IsIn([1, 2, 3])
  tier?: 1 | 2 | 3;
  @IsOptional() @IsInt() @Min(1) @Max(1000) quantity?: number;
  @IsOptional() @IsBoolean() complimentary?: boolean;
  @IsOptional() @IsBoolean() enforced?: boolean;
  @IsOptional() @Type(() => Date) @IsDate() enforcementStartsAt?: Date;
  @IsOptional() @Type(() => Date) @IsDate() periodStart?: Date;
  @IsOptional() @Type(() => Date) @IsDate() periodEnd?: Date;
}
