import { HttpException } from '@nestjs/common';
import { ERROR_STATUS, ErrorCode } from './error-codes';

export interface ErrorDetail {
  field: string;
  message: string;
  /** An outside provider's own numeric error code, when it refused (e.g. WhatsApp's 131047). */
  providerCode?: number;
}

/** The one exception type domain code throws; the filter renders it as the spec's envelope. */
export class ApiError extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super({ code, message }, ERROR_STATUS[code]);
  }

  static notFound(what: string): ApiError {
    return new ApiError('NOT_FOUND', `${what} not found`);
  }

  static validation(field: string, message: string): ApiError {
    return new ApiError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }]);
  }

  static conflict(message: string): ApiError {
    return new ApiError('CONFLICT', message);
  }
}
