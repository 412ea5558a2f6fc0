import { Subscription } from './entities/subscription.entity';
import { Trial } from './entities/trial.entity';
import { blockedReason, coversCall, Entitlements, hasOutboundPlan, isEnforced, outreachItems } from './entitlements';

const NOW = Date.parse('2026-03-04T12:00:00.000Z');

const item = (fields: Partial<Subscription> = {}): Subscription =>
  Object.assign(new Subscription(), {
    productType: 'outreach',
    complimentary: false,
    status: 'active',
    enforced: false,
    enforcementStartsAt: null,
    ...fields,
  });

const trial = (fields: Partial<Trial> = {}): Trial =>
  Object.assign(new Trial(), { status: 'active', endsAt: new Date(NOW + 1000), ...fields });

const holding = (subscriptions: Subscription[], t: Trial | null = null): Entitlements => ({
  subscriptions,
  trial: t,
  now: NOW,
});

describe('entitlements (billing classes)', () => {
  it('an outbound plan is an active outreach item, a complimentary item, or a running trial', () => {
    expect(hasOutboundPlan(holding([item()]))).toBe(true);
    expect(hasOutboundPlan(holding([item({ productType: 'receptionist', complimentary: true })]))).toBe(true);
    expect(hasOutboundPlan(holding([], trial()))).toBe(true);
    expect(hasOutboundPlan(holding([item({ productType: 'receptionist' })]))).toBe(false);
    expect(hasOutboundPlan(holding([item({ status: 'canceled' })]))).toBe(false);
    expect(hasOutboundPlan(holding([], trial({ endsAt: new Date(NOW) })))).toBe(false);
    expect(hasOutboundPlan(holding([], trial({ status: 'converted' })))).toBe(false);
  });

  it('complimentary items cover every call, receptionist items inbound calls only', () => {
    const receptionist = holding([item({ productType: 'receptionist' })]);
    expect(coversCall(receptionist, 'inbound')).toBe('receptionist');
    expect(coversCall(receptionist, 'outbound')).toBeNull();
    expect(coversCall(holding([item({ complimentary: true })]), 'outbound')).toBe('complimentary');
    expect(coversCall(holding([item()]), 'inbound')).toBeNull();
  });

  it('reports the paid outreach items only, and enforces once an enforced one is past its start', () => {
    const paid = item({ enforced: true, enforcementStartsAt: new Date(NOW - 1) });
    const later = item({ enforced: true, enforcementStartsAt: new Date(NOW + 1) });
    expect(
      outreachItems(holding([paid, item({ complimentary: true }), item({ productType: 'receptionist' })])),
    ).toEqual([paid]);
    expect(isEnforced(holding([paid]))).toBe(true);
    expect(isEnforced(holding([later]))).toBe(false);
    expect(isEnforced(holding([item({ enforced: true })]))).toBe(true);
    expect(isEnforced(holding([item()]))).toBe(false);
  });

  describe('why an outbound call is blocked', () => {
    const minutes = (balanceMins: number, availableMins: number) => ({ balanceMins, availableMins });

    it('without a plan, whatever the minutes', () => {
      expect(blockedReason(holding([]), minutes(100, 100))).toBe('OUTBOUND_PLAN_REQUIRED');
    });

    it('never under a complimentary item', () => {
      expect(blockedReason(holding([item({ complimentary: true })]), minutes(0, 0))).toBeNull();
    });

    it('not enforced: while the balance is above zero, even when calls in flight hold it all', () => {
      expect(blockedReason(holding([item()]), minutes(1, 0))).toBeNull();
      expect(blockedReason(holding([item()]), minutes(0, 0))).toBe('OUTBOUND_MINUTES_EXHAUSTED');
    });

    it('enforced, or on a trial: only with a minute free after reservations', () => {
      const enforced = holding([item({ enforced: true })]);
      expect(blockedReason(enforced, minutes(5, 1))).toBeNull();
      expect(blockedReason(enforced, minutes(5, 0))).toBe('OUTBOUND_MINUTES_EXHAUSTED');
      expect(blockedReason(holding([], trial()), minutes(5, 0))).toBe('OUTBOUND_MINUTES_EXHAUSTED');
    });
  });
});
