import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './to-error-response';

/** The single place an error becomes a response: the spec's envelope, logged when it is a fault of ours. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const response = toErrorResponse(exception);
    if (response.unexpected) {
      this.logger.error({ err: exception, reqId: request?.id, url: request?.url }, 'Unhandled error');
    }
    if (response.headers) reply.headers(response.headers);
    void reply.status(response.status).send(response.body);
  }
}
