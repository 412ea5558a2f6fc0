import { IsBoolean, IsOptional } from 'class-validator';

export class CancelSubscriptionDto {
  /** true: keep it until the period ends; false (default): end it now. */
  @IsOptional() @IsBoolean() atPeriodEnd?: boolean;
}
