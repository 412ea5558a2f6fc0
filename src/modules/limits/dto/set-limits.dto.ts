import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Upper bound of an organization's concurrency; the voice platform's own account limits apply above it. */
export const MAX_CONCURRENT_CALLS_BOUND = 1000;

export class SetLimitsDto {
  @ApiProperty({ minimum: 1, maximum: MAX_CONCURRENT_CALLS_BOUND, example: 10 })
  @IsInt()
  @Min(1)
  @Max(MAX_CONCURRENT_CALLS_BOUND)
  maxConcurrentCalls: number;

  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Slots kept free of outbound calls for inbound callers' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CONCURRENT_CALLS_BOUND)
  inboundReserve?: number;
}
