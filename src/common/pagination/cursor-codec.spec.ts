import { ApiError } from '../errors/api-error';
import { CursorCodec } from './cursor-codec';

describe('CursorCodec', () => {
  const codec = new CursorCodec('secret');
  const position = { sort: '2026-01-01T00:00:00.000Z', id: '01a20000-0000-7000-8000-000000000001' };
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as ApiError).code;
    }
    return 'no error';
  };

  it('round-trips a position for the same filter set, whatever the key order', () => {
    const cursor = codec.encode(position, { status: 'ended', caseId: 'x' });
    expect(codec.decode(cursor, { caseId: 'x', status: 'ended' })).toEqual(position);
  });

  it('treats absent, undefined and empty filters alike', () => {
    const cursor = codec.encode(position, { status: undefined });
    expect(codec.decode(cursor, { search: '' })).toEqual(position);
  });

  it('rejects a cursor reused after a filter change', () => {
    const cursor = codec.encode(position, { status: 'ended' });
    expect(code(() => codec.decode(cursor, { status: 'error' }))).toBe('INVALID_CURSOR');
    expect(code(() => codec.decode(cursor, {}))).toBe('INVALID_CURSOR');
  });

  it('rejects tampered, foreign and garbage cursors', () => {
    const cursor = codec.encode(position, {});
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ s: position.sort, i: 'other', f: '' })).toString('base64url');
    expect(code(() => codec.decode(`${forged}.${signature}`, {}))).toBe('INVALID_CURSOR');
    expect(code(() => codec.decode(`${payload}.AAAA${signature.slice(4)}`, {}))).toBe('INVALID_CURSOR');
    expect(code(() => new CursorCodec('other-secret').decode(cursor, {}))).toBe('INVALID_CURSOR');
    for (const garbage of ['', 'abc', 'a.b.c', '.', '%%%.%%%']) {
      expect(code(() => codec.decode(garbage, {}))).toBe('INVALID_CURSOR');
    }
  });

  it('rejects a well-signed cursor whose payload is malformed (null, wrong types, not a timestamp or UUID)', () => {
    // Signed with the codec's own key, as a holder of the secret (or an old build) would.
    const sign = (payload: unknown) => {
      const text = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${text}.${(codec as unknown as { sign(p: string): string }).sign(text)}`;
    };
    const f = codec.encode(position, {}).split('.')[0];
    const fingerprint = (JSON.parse(Buffer.from(f, 'base64url').toString()) as { f: string }).f;
    for (const payload of [
      null,
      42,
      'text',
      [],
      { s: 1, i: position.id, f: fingerprint },
      { s: 'yesterday', i: position.id, f: fingerprint },
      { s: '2026-13-45T99:99:99.999Z', i: position.id, f: fingerprint },
      { s: position.sort, i: 'not-a-uuid', f: fingerprint },
      { s: position.sort, f: fingerprint },
    ]) {
      expect(code(() => codec.decode(sign(payload), {}))).toBe('INVALID_CURSOR');
    }
    expect(codec.decode(sign({ s: position.sort, i: position.id, f: fingerprint }), {})).toEqual(position);
  });
});
