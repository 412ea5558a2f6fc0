import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { PRODUCT_TYPES, ProductType } from '../entities/subscription.entity';

export class CreateSubscriptionDto {
  @ApiProperty({
    enum: PRODUCT_TYPES,
    example: 'outreach',
    description: 'outreach: outbound calls with included minutes; receptionist: covers inbound calls',
  })
  @IsIn(PRODUCT_TYPES)
  productType: ProductType;
  @ApiPropertyOptional({
    type: 'integer',
    enum: [1, 2, 3],
    example: 2,
    description: 'Required for a paid outreach item (100, 300 or 800 minutes per unit and period); ignored otherwise',
  })
  @ValidateIf((o: CreateSubscriptionDto) => o.productType === 'outreach' && !o.complimentary)
  @IsIn([1, 2, 3])
  tier?: 1 | 2 | 3;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 1, example: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  quantity?: number;
  @ApiPropertyOptional({ default: false, description: 'Covers every call without counting minutes' })
  @IsOptional()
  @IsBoolean()
  complimentary?: boolean;
  @ApiPropertyOptional({
    default: false,
    description: 'Outbound calls need a free minute (from `enforcementStartsAt`); otherwise a positive balance',
  })
  @IsOptional()
  @IsBoolean()
  enforced?: boolean;
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Default: enforced at once (years 1970-9999)' })
  @IsOptional()
  @Type(() => Date)
  @IsBoundedDate()
  enforcementStartsAt?: Date;
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Default: now (years 1970-9999)' })
  @IsOptional()
  @Type(() => Date)
  @IsBoundedDate()
  periodStart?: Date;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Default: a month after `periodStart`; must be after it (years 1970-9999)',
  })
  @IsOptional()
  @Type(() => Date)
  @IsBoundedDate()
  periodEnd?: Date;
}
