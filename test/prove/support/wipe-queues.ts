import IORedis from 'ioredis';

/** Deletes every key of this app's queues (its own prefix): other runs share the Redis server and keep theirs. */
export async function wipeQueues(redis: IORedis, queuePrefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
