import { Type } from 'class-transformer';
import { IsDate, IsInt, IsOptional, Max, Min } from 'class-validator';

export class StartTrialDto {
  @IsInt() @Min(1) @Max(365) days: number;
  @IsInt() @Min(0) @Max(100_000) mins: number;
  @IsOptional() @Type(() => Date) @IsDate() startedAt?: Date;
}
