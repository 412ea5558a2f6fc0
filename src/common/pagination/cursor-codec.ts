import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../ids/id-param.pipe';

/** The sort values cursors carry: timestamps as `Date.toISOString()` writes them. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

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

function isPosition(value: unknown): value is { s: string; i: string; f: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const { s, i } = value as { s?: unknown; i?: unknown };
  return typeof s === 'string' && ISO_TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s)) && isUuid(i);
}

const invalid = (why: string) => new ApiError('INVALID_CURSOR', `cursor: ${why}; restart without a cursor`);

/**
 * Opaque, tamper-evident cursors: `base64url(JSON{position, filter fingerprint}).hmac`. A cursor only works for
 * the exact filter set that produced it (docs/contracts/conventions.md); anything else is 400 INVALID_CURSOR.
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
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid('not a cursor');
    }
    // A well-signed payload is still checked field by field: it reaches SQL as a timestamp and a UUID, and an
    // old or leaked secret must not turn a cursor into a 500 (docs/contracts/bounds.md).
    if (!isPosition(parsed)) throw invalid('not a cursor');
    if (parsed.f !== fingerprint(filters)) throw invalid('the cursor was made for another filter set');
    return { sort: parsed.s, id: parsed.i };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}
