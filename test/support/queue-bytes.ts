import IORedis from 'ioredis';

/**
 * Bytes held in Redis by the keys of one app's queues (its `queuePrefix`) whose name mentions `needle` (every
 * key when empty). SAMPLES 0: every field counted (the default samples 5 fields of a hash and can miss a job's
 * data).
 */
export async function queueBytes(redis: IORedis, queuePrefix: string, needle = ''): Promise<number> {
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}*${needle}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) total += (await redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0;
  } while (cursor !== '0');
  return total;
}
