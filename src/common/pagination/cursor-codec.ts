import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error';

/** Where the previous page stopped: the sort value and the id that breaks ties. */
export interface KeysetPosition {
  sort: string;
  id: string;
}

type FilterValue = string | number | boolean | null | undefined | readonly string[];

function fingerprint(filters: Record<string, FilterValue>): string {
  const stable = Object.keys(filters)
    .sort()
    .filter((k) => filters[k] !== undefined && filters[k] !== null && filters[k] !== '')
    .map((k) => [k, filters[k]]);
  return createHash('sha256').update(JSON.stringify(stable)).digest('base64url').slice(0, 16);
}

const invalid = (why: string) => new ApiError('INVALID_CURSOR', `cursor: ${why}; restart without a cursor`);

/**
 * Opaque, tamper-evident cursors: `base64url(JSON{position, filter fingerprint}).hmac`. A cursor only works for
 * the exact filter set that produced it (CONTRACTS §3); anything else is 400 INVALID_CURSOR.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(position: KeysetPosition, filters: Record<string, FilterValue>): string {
    const payload = Buffer.from(JSON.stringify({ s: position.sort, i: position.id, f: fingerprint(filters) })).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  decode(cursor: string, filters: Record<string, FilterValue>): KeysetPosition {
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length) throw invalid('not a cursor');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('not a cursor');
    let parsed: { s?: unknown; i?: unknown; f?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid('not a cursor');
    }
    if (typeof parsed.s !== 'string' || typeof parsed.i !== 'string') throw invalid('not a cursor');
    if (parsed.f !== fingerprint(filters)) throw invalid('the cursor was made for another filter set');
    return { sort: parsed.s, id: parsed.i };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}
