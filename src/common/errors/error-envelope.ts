import { ErrorCode } from './error-codes';
import { ErrorDetail } from './api-error';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
}

export function envelope(code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorEnvelope {
  return { error: details?.length ? { code, message, details } : { code, message } };
}
