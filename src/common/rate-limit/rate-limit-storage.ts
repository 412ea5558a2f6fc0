/** The window of every rate limit: the per-key limit and the per-address failure budget. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** The counters' store (Redis or in-process), shared by the per-key limit and the per-address failure budget. */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
