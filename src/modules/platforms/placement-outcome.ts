/** A voice platform answered a request with a 5xx (or a 429 outside call placement); its status kept. */
export class PlatformServerError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`${status} ${detail}`);
  }
}

/**
 * Whether a platform certainly did not act on a failed request: it asked us to come back (429, 503) or the
 * connection never opened (refused, name not resolved). After a timeout, a reset connection or another 5xx it may
 * have acted: a create-call request may have placed the call, and placing it again could ring the customer twice.
 */
export function certainlyNotProcessed(failure: { status?: number; error?: unknown }): boolean {
  if (failure.status !== undefined) return failure.status === 429 || failure.status === 503;
  const code = ((failure.error as Error | undefined)?.cause as { code?: string } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}
