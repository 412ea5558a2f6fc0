import { CallerIdPool, areaCode } from './caller-id-pool';

const SF = '+14155550100';
const NY = '+12125550100';
const CHI = '+13125550100';

describe('the caller IDs of a campaign step', () => {
  it('calls from a number of the area code called (local presence), else the least used today', () => {
    const pool = new CallerIdPool([SF, NY, CHI], new Map([[SF, 2]]), null, new Set());
    expect(pool.pick('+12125551234')).toBe(NY);
    expect(pool.pick('+14155551234')).toBe(SF);
    // No local number for 617: the least used (CHI, none yet; NY has one now, SF three).
    expect(pool.pick('+16175551234')).toBe(CHI);
    expect(pool.pick('+447700900123')).toBe(NY);
  });

  it('never goes past the daily cap; exhausted when every number reached it', () => {
    const pool = new CallerIdPool([SF, NY], new Map([[SF, 3]]), 4, new Set());
    expect(pool.pick('+14155551234')).toBe(SF);
    // SF is full: a 415 call goes out from the other number.
    expect(pool.pick('+14155551235')).toBe(NY);
    expect(pool.exhausted).toBe(false);
    for (let i = 0; i < 3; i++) expect(pool.pick('+12125551234')).toBe(NY);
    expect(pool.exhausted).toBe(true);
    expect(pool.pick('+12125551234')).toBeNull();
  });

  it('leaves degraded numbers out while another remains, uses them when none does', () => {
    const pool = new CallerIdPool([SF, NY], new Map(), null, new Set([SF]));
    expect(pool.pick('+14155551234')).toBe(NY);
    const allDegraded = new CallerIdPool([SF], new Map(), null, new Set([SF]));
    expect(allDegraded.pick('+14155551234')).toBe(SF);
  });

  it('area codes are North American only', () => {
    expect(areaCode('+14155550100')).toBe('415');
    expect(areaCode('+447700900123')).toBeNull();
  });
});
