import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLOCKED_RANGES, DESTINATION_CLASSES } from './destination-ranges';
import {
  DEFAULT_DESTINATION_RULES,
  DestinationRules,
  blockedRangeOf,
  countriesOf,
  evaluateDestination,
  refusalMessage,
} from './destination-rules';

const rules = (over: Partial<DestinationRules>): DestinationRules => ({ ...DEFAULT_DESTINATION_RULES, ...over });

describe('evaluateDestination', () => {
  describe('with the defaults (no rules set)', () => {
    it.each(['+14155550187', '+442071234567', '+33612345678', '+80012345678'])('allows %s', (number) => {
      expect(evaluateDestination(number, DEFAULT_DESTINATION_RULES)).toEqual({ allowed: true });
    });

    it.each([
      ['+19005550123', '+1900', 'premium-rate'],
      ['+19765550123', '+1976', 'premium-rate'],
      ['+449012345678', '+4490', 'premium-rate'],
      ['+979123456789', '+979', 'premium-rate'],
      ['+881612345678', '+881', 'satellite'],
      ['+870773123456', '+870', 'satellite'],
      ['+882123456789', '+882', 'international-network'],
      ['+883123456789', '+883', 'international-network'],
    ])('refuses %s: range %s of class %s', (number, prefix, cls) => {
      expect(evaluateDestination(number, DEFAULT_DESTINATION_RULES)).toMatchObject({
        allowed: false,
        reason: 'blocked-class',
        prefix,
        class: cls,
      });
    });
  });

  it('an opt-in to a class opens every range of it, and only of it', () => {
    const satellite = rules({ allowedClasses: ['satellite'] });
    expect(evaluateDestination('+881612345678', satellite)).toEqual({ allowed: true });
    expect(evaluateDestination('+870773123456', satellite)).toEqual({ allowed: true });
    expect(evaluateDestination('+19005550123', satellite)).toMatchObject({ allowed: false, class: 'premium-rate' });
    expect(evaluateDestination('+882123456789', satellite)).toMatchObject({ allowed: false, reason: 'blocked-class' });
  });

  it("the organization's own prefixes refuse first, even inside an opted-in class", () => {
    const own = rules({ blockedPrefixes: ['+1268', '+8816'], allowedClasses: ['satellite'] });
    expect(evaluateDestination('+12684601234', own)).toEqual({
      allowed: false,
      reason: 'blocked-prefix',
      prefix: '+1268',
    });
    expect(evaluateDestination('+881612345678', own)).toMatchObject({ reason: 'blocked-prefix', prefix: '+8816' });
    expect(evaluateDestination('+881712345678', own)).toEqual({ allowed: true });
    expect(evaluateDestination('+14155550187', own)).toEqual({ allowed: true });
  });

  it('a country list allows its countries and refuses the others', () => {
    const northAmerica = rules({ allowedCountries: ['US', 'CA'] });
    expect(evaluateDestination('+14155550187', northAmerica)).toEqual({ allowed: true });
    expect(evaluateDestination('+16135550123', northAmerica)).toEqual({ allowed: true });
    // +1 809 is the Dominican Republic: same calling code, another country.
    expect(evaluateDestination('+18095550123', northAmerica)).toEqual({
      allowed: false,
      reason: 'country-not-allowed',
      country: 'DO',
    });
    expect(evaluateDestination('+442071234567', northAmerica)).toMatchObject({ country: 'GB' });
  });

  it('a country list does not open a blocked range of an allowed country', () => {
    expect(evaluateDestination('+19005550123', rules({ allowedCountries: ['US'] }))).toMatchObject({
      reason: 'blocked-class',
    });
  });

  it('a number that could be of several countries is allowed only when all of them are', () => {
    // +44 7700 900xxx is a range libphonenumber places in no single one of GB, GG, IM, JE.
    expect(countriesOf('+447700900123')).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(evaluateDestination('+447700900123', rules({ allowedCountries: ['GB'] }))).toMatchObject({
      reason: 'country-not-allowed',
      country: 'GB',
    });
    expect(evaluateDestination('+447700900123', rules({ allowedCountries: ['GB', 'GG', 'IM', 'JE'] }))).toEqual({
      allowed: true,
    });
  });

  it('a number of no country is decided by the ranges alone, a number of an unknown code is refused by a list', () => {
    expect(countriesOf('+80012345678')).toBeNull();
    expect(evaluateDestination('+80012345678', rules({ allowedCountries: ['US'] }))).toEqual({ allowed: true });
    expect(
      evaluateDestination('+881612345678', rules({ allowedCountries: ['US'], allowedClasses: ['satellite'] })),
    ).toEqual({ allowed: true });
    expect(countriesOf('+99912345678')).toEqual([]);
    expect(evaluateDestination('+99912345678', rules({ allowedCountries: ['US'] }))).toEqual({
      allowed: false,
      reason: 'country-not-allowed',
      country: null,
    });
    expect(evaluateDestination('+99912345678', DEFAULT_DESTINATION_RULES)).toEqual({ allowed: true });
  });

  it('an empty country list refuses every geographic number', () => {
    expect(evaluateDestination('+14155550187', rules({ allowedCountries: [] }))).toMatchObject({ allowed: false });
  });

  it('the longest range decides', () => {
    expect(blockedRangeOf('+34806123456')?.prefix).toBe('+34806');
    expect(blockedRangeOf('+34612345678')).toBeNull();
  });

  it('each refusal says which rule refused the number', () => {
    const refusal = (number: string, r: DestinationRules) => {
      const verdict = evaluateDestination(number, r);
      if (verdict.allowed) throw new Error(`${number} allowed`);
      return refusalMessage(number, verdict);
    };
    expect(refusal('+12684601234', rules({ blockedPrefixes: ['+1268'] }))).toBe(
      '+12684601234 starts with +1268, a prefix this organization blocks',
    );
    expect(refusal('+19005550123', DEFAULT_DESTINATION_RULES)).toContain('premium-rate number (+1900');
    expect(refusal('+442071234567', rules({ allowedCountries: ['US'] }))).toBe(
      '+442071234567 is in GB, not a country this organization calls',
    );
    expect(refusal('+99912345678', rules({ allowedCountries: ['US'] }))).toContain('no known country');
  });
});

describe('the ranges blocked by default', () => {
  it('are well-formed, unique, and each of a known class', () => {
    const prefixes = BLOCKED_RANGES.map((r) => r.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const range of BLOCKED_RANGES) {
      expect(range.prefix).toMatch(/^\+[1-9]\d{0,14}$/);
      expect(DESTINATION_CLASSES).toContain(range.class);
    }
  });

  it('are the table of docs/contracts/destinations.md, row for row', () => {
    const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'contracts', 'destinations.md'), 'utf8');
    const documented = [...doc.matchAll(/^\| `(\+\d+)` \| `([a-z-]+)` \| (.+) \|$/gm)].map((m) => ({
      prefix: m[1],
      class: m[2],
      description: m[3],
    }));
    expect(documented).toEqual(
      BLOCKED_RANGES.map((r) => ({ prefix: r.prefix, class: r.class, description: r.description })),
    );
  });
});
