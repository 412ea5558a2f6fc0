import { createHash } from 'node:crypto';

/** One version of the campaign's case and its share of the entries (docs/testing-your-assistant.md, "A/B"). */
export interface CampaignVariant {
  caseVersion: number;
  weight: number;
}

export const VARIANT_BOUNDS = { min: 2, max: 4, weightMin: 1, weightMax: 100 } as const;

/**
 * The variant of an entry, stable and by weight: the entry id's SHA-256, read as a fraction of the weights'
 * total, falls in one variant's slice. The same id always gets the same variant, whatever else the campaign holds.
 */
export function assignVariant(entryId: string, variants: readonly CampaignVariant[]): CampaignVariant {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  const point = (createHash('sha256').update(entryId).digest().readUInt32BE(0) / 2 ** 32) * total;
  let upTo = 0;
  for (const variant of variants) {
    upTo += variant.weight;
    if (point < upTo) return variant;
  }
  return variants[variants.length - 1];
}

/**
 * The two-sided p-value of the two-proportion z-test (pooled): whether two success rates `s1/n1` and `s2/n2`
 * differ by more than chance. Null when either side has no trial or the pooled rate is 0 or 1 (no variance).
 */
export function twoProportionPValue(s1: number, n1: number, s2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null;
  const pooled = (s1 + s2) / (n1 + n2);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (standardError === 0) return null;
  const z = (s1 / n1 - s2 / n2) / standardError;
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/**
 * The complementary error function, by the Chebyshev fit of Numerical Recipes (`erfcc`, fractional error below
 * 1.2e-7 everywhere): enough for a p-value shown to four places.
 */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? y : 2 - y;
}
