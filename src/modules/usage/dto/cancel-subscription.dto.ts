import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

export class CancelSubscriptionDto {
  @ApiPropertyOptional({
    default: false,
    example: true,
    description: 'true: keep it until the period ends; false: end it now (unspent included minutes expire)',
  })
  @IsOptional()
  @IsBoolean()
  atPeriodEnd?: boolean;
}
