/**
 * `work`'s result, or `fallback()`'s when `work` has not settled within `ms`. The work is not cancelled (it may
 * hold a transaction that must end cleanly); its late result, or failure, is handed to `late` instead.
 */
export async function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  fallback: () => T,
  late: (outcome: { value?: T; error?: unknown }) => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve(fallback());
    }, ms);
  });
  const guarded = work.then(
    (value) => {
      if (expired) late({ value });
      return value;
    },
    (error: unknown) => {
      if (!expired) throw error;
      late({ error });
      return undefined as never;
    },
  );
  try {
    return await Promise.race([guarded, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
