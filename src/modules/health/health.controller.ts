import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Queue } from 'bullmq';
import { InjectQueue } from '@nestjs/bullmq';
import { Public } from '../../common/auth/access.decorators';
import { QueueName } from '../../infra/queue/queue-names';
import { QUEUE_CONNECTION } from '../../infra/queue/queue.tokens';
import { QueueConnection } from '../../infra/queue/queue-connection';

/** Liveness and readiness for orchestrators (CONTRACTS §1): Terminus JSON, no API key. */
@ApiExcludeController()
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
  live() {
    return this.health.check([]);
  }

  /** 200 when PostgreSQL (and Redis, when configured) answer; otherwise 503 with Terminus's report of which failed. */
  @Get('ready')
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
