import { HttpException } from '@nestjs/common';
import { ERROR_STATUS, ErrorCode } from './error-codes';

export interface ErrorDetail {
  field: string;
  message: string;
  /** An outside provider's own numeric error code, when it refused (e.g. WhatsApp's 131047). */
  providerCode?: number;
}

/** At most this many `details` in one error (a 10,000-row refusal stays readable and small). */
export const MAX_DETAILS = 100;

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
   * Well-formed input the service cannot act on for what it says about stored data or this deployment (a campaign
   * row missing a variable its case requires, a known voice platform whose credentials are not set):
   * VALIDATION_ERROR, but 422, since the same body is accepted once the data changes; a malformed value is 400
   * (docs/contracts/errors.md). The message names the first field; `details` name each (at most `MAX_DETAILS`).
   */
  static unprocessable(details: ErrorDetail[], total = details.length): ApiError {
    const listed = details.slice(0, MAX_DETAILS);
    const more = total > listed.length ? `, ${total - listed.length} more not listed` : '';
    const message = `${listed[0].field}: ${listed[0].message}${total > 1 ? `; ${total} refusals in all${more}` : ''}`;
    return new ApiError('VALIDATION_ERROR', message, listed, undefined, 422);
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
