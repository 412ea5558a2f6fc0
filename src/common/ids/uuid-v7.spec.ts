import { uuidv7 } from './uuid-v7';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidv7', () => {
  it('is an RFC 9562 version-7 UUID carrying the given millisecond timestamp', () => {
    const at = Date.UTC(2026, 10, 22, 10, 0, 0, 123);
    const id = uuidv7(at);
    expect(id).toMatch(V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by creation time, and ids of the same millisecond differ', () => {
    const earlier = uuidv7(1_000);
    const later = uuidv7(2_000);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 1000 }, () => uuidv7(5_000)));
    expect(same.size).toBe(1000);
    for (const id of same) expect(id).toMatch(V7);
  });
});
