import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Upper bound of an organization's concurrency; the voice platform's own account limits apply above it. */
export const MAX_CONCURRENT_CALLS_BOUND = 1000;

export class SetLimitsDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_CONCURRENT_CALLS_BOUND,
    example: 10,
    description: 'Calls (outbound and inbound) that may be live at once',
  })
  @IsInt()
  @Min(1)
  @Max(MAX_CONCURRENT_CALLS_BOUND)
  maxConcurrentCalls: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_CONCURRENT_CALLS_BOUND,
    default: 0,
    example: 2,
    description: 'Extension: slots kept free of outbound calls for inbound callers',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CONCURRENT_CALLS_BOUND)
  inboundReserve?: number;
}
