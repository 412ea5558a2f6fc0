import { Global, Module } from '@nestjs/common';
import { MetricsServer } from './metrics-server';
import { Metrics } from './metrics';

/** Prometheus metrics: the `Metrics` service to record into (global), served by MetricsServer on METRICS_PORT. */
@Global()
@Module({
  providers: [Metrics, MetricsServer],
  exports: [Metrics],
})
export class MetricsModule {}
