import {
  DELIVERY_TRANSITIONS,
  REPORT_ORDER,
  deliveryMoveCondition,
  deliveryMoveFrom,
} from './delivery-status-transitions';
import { DELIVERY_STATUSES, DeliveryStatus } from './message.entity';

const GOOD_PATH: readonly DeliveryStatus[] = ['accepted', 'sent', 'delivered', 'read'];

describe('the delivery status transition table', () => {
  it('has a row for every status and names only known statuses', () => {
    expect(Object.keys(DELIVERY_TRANSITIONS).sort()).toEqual([...DELIVERY_STATUSES].sort());
    for (const targets of Object.values(DELIVERY_TRANSITIONS))
      for (const to of targets) expect(DELIVERY_STATUSES).toContain(to);
  });

  it('moves forward along the good path only, and `failed` wins over anything but `read`', () => {
    for (const from of DELIVERY_STATUSES)
      for (const to of DELIVERY_STATUSES) {
        const allowed =
          to === 'failed'
            ? from !== 'read' && from !== 'failed'
            : from !== 'failed' && GOOD_PATH.indexOf(from) < GOOD_PATH.indexOf(to);
        expect({ from, to, allowed: DELIVERY_TRANSITIONS[from].includes(to) }).toEqual({ from, to, allowed });
      }
  });

  it('applies kept reports in an order every allowed move goes forward in', () => {
    expect([...REPORT_ORDER].sort()).toEqual([...DELIVERY_STATUSES].sort());
    for (const [from, targets] of Object.entries(DELIVERY_TRANSITIONS) as Array<[DeliveryStatus, DeliveryStatus[]]>)
      for (const to of targets) expect(REPORT_ORDER.indexOf(from)).toBeLessThan(REPORT_ORDER.indexOf(to));
  });

  it("the SQL condition is the table's: a message without a status takes any report", () => {
    expect(deliveryMoveFrom('failed')).toEqual(['accepted', 'sent', 'delivered']);
    expect(deliveryMoveCondition('failed')).toBe(
      `(delivery_status IS NULL OR delivery_status IN ('accepted', 'sent', 'delivered'))`,
    );
    expect(deliveryMoveCondition('read', 'm.delivery_status')).toBe(
      `(m.delivery_status IS NULL OR m.delivery_status IN ('accepted', 'sent', 'delivered'))`,
    );
    expect(deliveryMoveCondition('sent')).toBe(`(delivery_status IS NULL OR delivery_status IN ('accepted'))`);
    expect(deliveryMoveCondition('accepted')).toBe('delivery_status IS NULL');
  });
});
