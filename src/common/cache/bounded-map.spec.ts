import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('drops the entry set longest ago once past its bound', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.entries()]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('puts a key set again last, so the least recently set goes first', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([...map.entries()]).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
  });
});
