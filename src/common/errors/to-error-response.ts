import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiError, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from './api-error';
import { ERROR_STATUS, ErrorCode } from './error-codes';
import { ErrorEnvelope, envelope } from './error-envelope';

export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
  headers?: Record<string, string>;
  /** True when the error is ours to log as a fault (a 5xx we did not expect). */
  unexpected: boolean;
}

/** Fastify's own error codes that reach us before Nest routing, mapped to the contract's codes. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 1 MiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'VALIDATION_ERROR',
    message: 'body: Content-Type must be application/json',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'VALIDATION_ERROR',
    message: 'body: a JSON body is required when Content-Type is application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'VALIDATION_ERROR',
    message: 'body: Content-Length does not match the body',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'body: malformed JSON' },
};

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'INSUFFICIENT_SCOPE',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Database errors that mean "the database is not reachable right now", not a bug. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);
/**
 * node-postgres reports a dropped or unobtainable connection without a code, only by message (a connection
 * cut mid-query, a pool that could not connect in time); TypeORM keeps that message on its QueryFailedError.
 */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
];

function isUnavailable(error: unknown, code: string | undefined): boolean {
  if (code && UNAVAILABLE_ERRNOS.has(code)) return true;
  const message = (error as { message?: unknown })?.message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * Turns anything thrown anywhere (our ApiError, Nest's HttpExceptions, Fastify's parser errors, driver
 * errors) into the spec's envelope with the docs/contracts/errors.md code. Never leaks a stack or SQL.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) {
    return {
      status: error.getStatus(),
      body: envelope(error.code, error.message, error.details),
      headers: error.headers,
      // An outage is worth an error line in the log, whichever service it was.
      unexpected: error.unavailableService !== undefined,
    };
  }
  // Nest wraps errors raised inside Fastify (body parsing, limits) in an HttpException whose cause keeps the code.
  const fastifyCode = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  if (fastifyCode && FASTIFY_CODES[fastifyCode]) {
    const mapped = FASTIFY_CODES[fastifyCode];
    return { status: ERROR_STATUS[mapped.code], body: envelope(mapped.code, mapped.message), unexpected: false };
  }
  if (error instanceof SyntaxError || (error as { statusCode?: number })?.statusCode === 400) {
    return { status: 400, body: envelope('VALIDATION_ERROR', 'body: malformed JSON'), unexpected: false };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR');
    const message = status === 404 ? 'Route not found' : status >= 500 ? 'Internal server error' : error.message;
    return { status, body: envelope(code, message), unexpected: status >= 500 };
  }
  const statusCode = (error as { statusCode?: number })?.statusCode;
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    const code = STATUS_CODES[statusCode] ?? 'VALIDATION_ERROR';
    return { status: statusCode, body: envelope(code, (error as Error).message), unexpected: false };
  }
  if (isUnavailable(error, fastifyCode)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: envelope('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE),
      headers: { 'retry-after': UNAVAILABLE_RETRY_AFTER_SECONDS },
      unexpected: true,
    };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: envelope('INTERNAL_ERROR', 'Internal server error'),
    unexpected: true,
  };
}
