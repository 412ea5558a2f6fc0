import { OutboundBlockedReason } from './call-billing.port';
import { Subscription } from './entities/subscription.entity';
import { Trial } from './entities/trial.entity';

/** What an organization is entitled to right now: its live subscriptions and trial. */
export interface Entitlements {
  subscriptions: Subscription[];
  trial: Trial | null;
  now: number;
}

export function activeSubscriptions(e: Entitlements): Subscription[] {
  return e.subscriptions.filter((s) => s.status === 'active');
}

export function trialIsActive(trial: Trial | null, now: number): boolean {
  return !!trial && trial.status === 'active' && trial.endsAt.getTime() > now;
}

export function isComplimentary(e: Entitlements): boolean {
  return activeSubscriptions(e).some((s) => s.complimentary);
}

/** The paid outreach items whose allowance is reported (and enforced) in the `outreach` breakdown. */
export function outreachItems(e: Entitlements): Subscription[] {
  return activeSubscriptions(e).filter((s) => s.productType === 'outreach' && !s.complimentary);
}

/** Enforcement is on when an outreach item says so and its scheduled boundary (if any) has passed. */
export function isEnforced(e: Entitlements): boolean {
  return outreachItems(e).some(
    (s) => s.enforced && (!s.enforcementStartsAt || s.enforcementStartsAt.getTime() <= e.now),
  );
}

/** A plan that allows outbound calls: an outreach item, any complimentary item, or a running trial. */
export function hasOutboundPlan(e: Entitlements): boolean {
  return (
    activeSubscriptions(e).some((s) => s.productType === 'outreach' || s.complimentary) || trialIsActive(e.trial, e.now)
  );
}

/** Complimentary items cover every call; receptionist items cover inbound calls. */
export function coversCall(
  e: Entitlements,
  direction: 'inbound' | 'outbound',
): 'complimentary' | 'receptionist' | null {
  const active = activeSubscriptions(e);
  if (active.some((s) => s.complimentary)) return 'complimentary';
  if (direction === 'inbound' && active.some((s) => s.productType === 'receptionist')) return 'receptionist';
  return null;
}

/**
 * Why an outbound call may not be placed. Enforced accounts need a minute free after reservations. Accounts not
 * (yet) enforced follow the positive-balance policy: calls are accepted while the balance is above zero, even if
 * calls in flight hold it; the dispatch-time reservation still needs a free minute, so the balance never goes
 * negative either way.
 */
export function blockedReason(
  e: Entitlements,
  minutes: { balanceMins: number; availableMins: number },
): OutboundBlockedReason | null {
  if (!hasOutboundPlan(e)) return 'OUTBOUND_PLAN_REQUIRED';
  if (isComplimentary(e)) return null;
  const enough = isEnforced(e) || trialIsActive(e.trial, e.now) ? minutes.availableMins >= 1 : minutes.balanceMins > 0;
  return enough ? null : 'OUTBOUND_MINUTES_EXHAUSTED';
}
