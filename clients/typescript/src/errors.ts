import type { components } from './schema';

export type ErrorCode = components['schemas']['ErrorCode'];

/** Every non-2xx answer: the API's `{"error": {"code", "message"}}` with the status and the request id. */
export class VoiceCallingError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK_ERROR',
    message: string,
    readonly requestId: string | null,
    readonly details?: Array<{ field: string; message: string }>,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'VoiceCallingError';
  }
}
