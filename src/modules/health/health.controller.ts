import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Queue } from 'bullmq';
import { InjectQueue } from '@nestjs/bullmq';
import { Public } from '../../common/auth/access.decorators';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { QueueName } from '../../infra/queue/queue-names';
import { QUEUE_CONNECTION } from '../../infra/queue/queue.tokens';
import { QueueConnection } from '../../infra/queue/queue-connection';
import { HealthIndicatorStateResponse, HealthResponse } from './health.response';

/**
 * Liveness and readiness for orchestrators (docs/contracts/running.md): Terminus JSON, no API key. Documented in
 * openapi/admin.yaml (the operators' document), not openapi/openapi.yaml, whose every operation takes an API key
 * and a scope, as its tests assert.
 */
@ApiTags('Operations')
@ApiExtraModels(HealthIndicatorStateResponse)
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectQueue(QueueName.Maintenance) private readonly queue: Queue,
    @Inject(QUEUE_CONNECTION) private readonly connection: QueueConnection,
  ) {}

  @Get('live')
  @ApiOperation({
    operationId: 'getLiveness',
    summary: 'Liveness: the process is up and serving HTTP',
    description:
      'No credentials, never rate-limited; checks no dependency, so a database outage does not restart the ' +
      'process. 503 once the process has begun shutting down.',
    security: [],
  })
  @ApiResponse({
    status: 200,
    description: 'Up: `{"status": "ok", "info": {}, "error": {}, "details": {}}`',
    type: HealthResponse,
  })
  @ApiErrors('SERVICE_UNAVAILABLE')
  live() {
    return this.health.check([]);
  }

  /** 200 when PostgreSQL (and Redis, when configured) answer; otherwise 503 with Terminus's report of which failed. */
  @Get('ready')
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Readiness: PostgreSQL (and Redis, when REDIS_URL is set) answer within 1.5 s',
    description:
      'No credentials, never rate-limited. 503 with the same Terminus report (`status: error`, the failed ' +
      'dependency under `error`) when one does not answer, or `status: shutting_down` once the process stops.',
    security: [],
  })
  @ApiResponse({ status: 200, description: 'Ready', type: HealthResponse })
  @ApiResponse({ status: 503, description: 'Not ready: the report names the dependency down', type: HealthResponse })
  @ApiErrors('INTERNAL_ERROR')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const checks: HealthIndicatorFunction[] = [() => this.db.pingCheck('database').withTimeout(1500)];
    if (this.connection.kind === 'redis') {
      checks.push(() =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            // Any cheap round trip through the queue's own connection proves Redis answers.
            await this.queue.getJobCountByTypes('waiting');
          })
          .withTimeout(1500),
      );
    }
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.status(503);
      return error.getResponse();
    }
  }
}
