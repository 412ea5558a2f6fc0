import { HttpException } from '@nestjs/common';
import { ERROR_STATUS, ErrorCode } from './error-codes';

export interface ErrorDetail {
  field: string;
  message: string;
  /** An outside provider's own numeric error code, when it refused (e.g. WhatsApp's 131047). */
  providerCode?: number;
}

/** What a client is told when a backing service is down, and how soon to retry (seconds). */
export const UNAVAILABLE_MESSAGE = 'A backing service is temporarily unavailable; retry shortly';
export const UNAVAILABLE_RETRY_AFTER_SECONDS = '1';

/** The one exception type domain code throws; the filter renders it as the spec's envelope. */
export class ApiError extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    status: number = ERROR_STATUS[code],
  ) {
    super({ code, message }, status);
  }

  static notFound(what: string): ApiError {
    return new ApiError('NOT_FOUND', `${what} not found`);
  }

  static validation(field: string, message: string): ApiError {
    return new ApiError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }]);
  }

  /**
   * A well-formed value the service cannot act on (a known voice platform whose credentials are not set): 422
   * VALIDATION_ERROR naming the field, where a malformed one is 400 (docs/contracts/errors.md).
   */
  static unprocessable(field: string, message: string): ApiError {
    return new ApiError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }], undefined, 422);
  }

  static conflict(message: string): ApiError {
    return new ApiError('CONFLICT', message);
  }

  /**
   * A backing service (PostgreSQL, Redis) cannot be reached: 503 with `Retry-After`, the same answer whatever the
   * service, so a client retries rather than reports a bug. `cause` is kept for the log, never shown.
   */
  static unavailable(service: string, cause?: unknown): ApiError {
    const error = new ApiError('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE, undefined, {
      'retry-after': UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
    error.unavailableService = service;
    error.cause = cause;
    return error;
  }

  /** Set by `unavailable`: which backing service failed, for the error log. */
  unavailableService?: string;
}
