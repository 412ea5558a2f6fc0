import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

/** One dependency's state in a Terminus report. */
export class HealthIndicatorStateResponse {
  @ApiProperty({ enum: ['up', 'down'] }) status: 'up' | 'down';
  @ApiPropertyOptional({ type: 'integer', example: 3, description: 'Milliseconds the check took' })
  responseTime?: number;
  @ApiPropertyOptional({ example: 'timeout of 1500ms exceeded', description: 'Why it is down' }) message?: string;
}

/**
 * Terminus's report (docs/contracts/running.md): `details` holds every checked dependency (`database`; `redis` when REDIS_URL
 * is set), `info` those up, `error` those down.
 */
export class HealthResponse {
  @ApiProperty({
    enum: ['ok', 'error', 'shutting_down'],
    description: '`ok` (200); `error` when a dependency is down, `shutting_down` once the process is stopping (503)',
  })
  status: 'ok' | 'error' | 'shutting_down';
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(HealthIndicatorStateResponse) },
    example: { database: { status: 'up' }, redis: { status: 'up' } },
  })
  info: Record<string, HealthIndicatorStateResponse>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(HealthIndicatorStateResponse) },
    example: {},
  })
  error: Record<string, HealthIndicatorStateResponse>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(HealthIndicatorStateResponse) },
    example: { database: { status: 'up' }, redis: { status: 'up' } },
  })
  details: Record<string, HealthIndicatorStateResponse>;
}
