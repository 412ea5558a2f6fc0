import { randomUUID } from 'node:crypto';

/**
 * Time-ordered UUIDs (RFC 9562 v7): ids created later sort later, which keeps B-tree inserts local and makes
 * `id` a sensible tie-breaker after `createdAt` in keyset pagination. The random bits come from a v4 UUID, whose
 * variant bits v7 shares: `randomUUID` draws from a cached entropy pool, where `randomBytes` per id was a
 * syscall-backed fill on every insert (visible in the write path's CPU profile).
 */
export function uuidv7(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; keep everything after the version nibble.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
