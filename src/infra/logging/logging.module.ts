import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { prettyLogOptions } from './dev-log-format';
import { isQuietRequest } from './quiet-requests';
import { requestIdFor } from './request-id';

/** Structured JSON logs (pino) carrying the request id; credentials are redacted before anything is written. */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            ...(config.logFormat === 'pretty' ? prettyLogOptions() : {}),
            genReqId: (req) => requestIdFor(req),
            redact: {
              paths: [
                'req.headers["x-api-key"]',
                'req.headers.authorization',
                'req.headers["x-vapi-secret"]',
                'req.headers["x-hub-signature-256"]',
                'req.headers.cookie',
              ],
              censor: '[redacted]',
            },
            autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
            // pino-http's own levels (error for a failure, info otherwise), and debug for the console's own reads.
            customLogLevel: (req, res, error) => {
              if (error || res.statusCode >= 500) return 'error';
              return isQuietRequest(req.method, req.url, res.statusCode) ? 'debug' : 'info';
            },
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: req.url,
              }),
            },
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
