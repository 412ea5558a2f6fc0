import { JSON_BODY_LIMITS, jsonShapeViolation } from './json-shape';

const shape = (text: string) => jsonShapeViolation(Buffer.from(text));
const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('jsonShapeViolation', () => {
  it('accepts exactly 2,000 members and refuses 2,001', () => {
    expect(shape(members(JSON_BODY_LIMITS.members))).toBeNull();
    expect(shape(members(JSON_BODY_LIMITS.members + 1))).toMatch(/more than 2000 members/);
  });

  it('counts array elements and members at every level together', () => {
    const half = Array.from({ length: 1000 }, () => '1').join(',');
    expect(shape(`{"a":[${half}],"b":[${half}]}`)).toMatch(/members/); // 2 members + 2,000 elements
    expect(shape(`{"a":[${half}],"b":[${half.slice(4)}]}`)).toBeNull(); // 2 + 1,000 + 998
  });

  it('accepts nesting 32 deep and refuses 33', () => {
    expect(shape(nested(32))).toBeNull();
    expect(shape(nested(33))).toMatch(/deeper than 32/);
    expect(shape(`${'['.repeat(33)}${']'.repeat(33)}`)).toMatch(/deeper than 32/);
  });

  it('ignores brackets, commas and escaped quotes inside strings', () => {
    expect(shape(JSON.stringify({ a: '{[,,,]}"\\'.repeat(5000) }))).toBeNull();
    const escapes = Buffer.from('{"a":"\\\\","b":"\\"{"}'); // {"a":"\\","b":"\"{"}
    expect(jsonShapeViolation(escapes, { members: 2, depth: 1 })).toBeNull();
  });

  it('counts empty containers as no member', () => {
    expect(shape('{"a":{},"b":[],"c":[ ]}')).toBeNull();
    expect(jsonShapeViolation(Buffer.from('{"a":{},"b":[]}'), { members: 2, depth: 32 })).toBeNull();
    expect(jsonShapeViolation(Buffer.from('{"a":{},"b":[1]}'), { members: 2, depth: 32 })).toMatch(/members/);
  });

  it('scans a 1 MiB body in well under 50 ms', () => {
    const big = Buffer.from(JSON.stringify({ a: 'x'.repeat(1024 * 1024 - 20) }));
    jsonShapeViolation(big);
    const started = performance.now();
    expect(jsonShapeViolation(big)).toBeNull();
    expect(performance.now() - started).toBeLessThan(50);
  });
});
