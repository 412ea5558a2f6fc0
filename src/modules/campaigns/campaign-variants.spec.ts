import { assignVariant, CampaignVariant, twoProportionPValue } from './campaign-variants';

describe('campaign variants', () => {
  describe('assignVariant', () => {
    const variants: CampaignVariant[] = [
      { caseVersion: 1, weight: 70 },
      { caseVersion: 2, weight: 30 },
    ];

    it('is stable: an entry gets the same variant every time', () => {
      const id = '0190c0de-0000-7000-8000-000000000001';
      const first = assignVariant(id, variants).caseVersion;
      for (let i = 0; i < 5; i++) expect(assignVariant(id, variants).caseVersion).toBe(first);
    });

    it('splits by weight: 10,000 ids land within 2 points of 70/30 (fixed ids, so the same every run)', () => {
      let first = 0;
      for (let i = 0; i < 10_000; i++)
        if (assignVariant(`0190c0de-0000-7000-8000-${String(i).padStart(12, '0')}`, variants).caseVersion === 1)
          first++;
      expect(first / 10_000).toBeGreaterThan(0.68);
      expect(first / 10_000).toBeLessThan(0.72);
    });

    it('four variants all get entries; equal weights split evenly', () => {
      const four = [1, 2, 3, 4].map((caseVersion) => ({ caseVersion, weight: 1 }));
      const counts = new Map<number, number>();
      for (let i = 0; i < 8000; i++) {
        const v = assignVariant(`0190c0de-0000-7000-9000-${String(i).padStart(12, '0')}`, four).caseVersion;
        counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      for (const v of [1, 2, 3, 4]) expect(counts.get(v)! / 8000).toBeGreaterThan(0.22);
    });
  });

  describe('twoProportionPValue', () => {
    it('matches hand-computed values: 60/100 vs 45/100 (z = 2.1240, p = 0.03367)', () => {
      // pooled 0.525; SE = sqrt(0.525 * 0.475 * (1/100 + 1/100)) = 0.070622; z = 0.15 / 0.070622 = 2.12398;
      // p = 2 (1 - Phi(2.12398)) = erfc(2.12398 / sqrt 2) = 0.033672.
      expect(twoProportionPValue(60, 100, 45, 100)).toBeCloseTo(0.033672, 5);
      // 12/20 vs 8/20: z = 1.26491, p = 0.205903.
      expect(twoProportionPValue(12, 20, 8, 20)).toBeCloseTo(0.205903, 5);
    });

    it('is symmetric, and 1 for equal rates', () => {
      expect(twoProportionPValue(45, 100, 60, 100)).toBeCloseTo(0.033672, 5);
      expect(twoProportionPValue(30, 50, 30, 50)).toBeCloseTo(1, 6);
    });

    it('is null without trials on a side or without variance', () => {
      expect(twoProportionPValue(0, 0, 5, 10)).toBeNull();
      expect(twoProportionPValue(10, 10, 5, 5)).toBeNull();
      expect(twoProportionPValue(0, 10, 0, 7)).toBeNull();
    });
  });
});
