import { TIER_MINUTES } from './allocation';
import { Subscription } from './entities/subscription.entity';
import { EntryInput } from './minute-ledger.repository';
import { NewGrant } from './minute-grants.repository';

type PlanItem = Pick<Subscription, 'productType' | 'tier' | 'quantity' | 'complimentary'>;

export function includedMinutes(s: PlanItem): number {
  if (s.productType !== 'outreach' || s.complimentary || !s.tier) return 0;
  return TIER_MINUTES[s.tier as 1 | 2 | 3] * s.quantity;
}

export function planName(s: PlanItem): string {
  const product = s.productType === 'outreach' ? 'Outreach' : 'Receptionist';
  const tier = s.tier ? ` Tier ${s.tier}` : '';
  const quantity = s.quantity > 1 ? ` x${s.quantity}` : '';
  return `${product}${tier}${quantity}${s.complimentary ? ' (complimentary)' : ''}`;
}

export function planId(s: Pick<Subscription, 'productType' | 'tier' | 'complimentary'>): string {
  return [s.productType, s.tier ? `tier${s.tier}` : null, s.complimentary ? 'complimentary' : null]
    .filter(Boolean)
    .join('_');
}

/**
 * The grant of a period's included minutes and the ledger row that records it (GrantMinutesCommand's input);
 * null for an item that includes none (receptionist, complimentary).
 */
export function includedGrant(sub: Subscription): { grant: NewGrant; entry: EntryInput } | null {
  const mins = includedMinutes(sub);
  if (!mins) return null;
  return {
    grant: {
      kind: 'included',
      grantedMins: mins,
      subscriptionId: sub.id,
      periodStart: sub.currentPeriodStart,
      expiresAt: sub.currentPeriodEnd,
    },
    entry: {
      type: 'monthly_renewal',
      amountMins: mins,
      description: `${planName(sub)}: ${mins} included minutes for the period`,
      productType: sub.productType,
    },
  };
}
