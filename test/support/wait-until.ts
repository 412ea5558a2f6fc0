/**
 * Polls `probe` until it returns a truthy value and resolves to that value; throws, naming `what`, once `timeoutMs`
 * passed without one. The poll interval only paces the probing: nothing is proven by the wait itself, only by the
 * condition the probe checks.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
  pollMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
