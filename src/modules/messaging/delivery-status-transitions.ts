import { statusIn } from '../../infra/database/status-in';
import { DELIVERY_STATUSES, DeliveryStatus } from './message.entity';

/**
 * The delivery status machine of an outbound message, in one place. Provider reports move it forward along the
 * good path accepted → sent → delivered → read, skipping steps when reports arrive out of order (a late `sent`
 * after `delivered` is stale and moves nothing); `failed` ends it from anywhere but `read`. `read` and `failed`
 * are final. A message with no status yet (none is stored without one today) takes any report.
 * MessagesRepository.moveDeliveryStatus's `WHERE` comes from here; delivery-status-transitions.spec.ts checks
 * the table against that rule.
 */
export const DELIVERY_TRANSITIONS: Readonly<Record<DeliveryStatus, readonly DeliveryStatus[]>> = {
  accepted: ['sent', 'delivered', 'read', 'failed'],
  sent: ['delivered', 'read', 'failed'],
  delivered: ['read', 'failed'],
  read: [],
  failed: [],
};

/**
 * The order several reports about one message are applied in (the reports kept before its row was stored): the
 * good path, then `failed`, so each report that can still move the message does.
 */
export const REPORT_ORDER: readonly DeliveryStatus[] = ['accepted', 'sent', 'delivered', 'read', 'failed'];

/** The statuses a report of `to` moves a message from. */
export function deliveryMoveFrom(to: DeliveryStatus): DeliveryStatus[] {
  return DELIVERY_STATUSES.filter((from) => DELIVERY_TRANSITIONS[from].includes(to));
}

/** The SQL condition under which a report of `to` moves a message: no status yet, or one the table moves from. */
export function deliveryMoveCondition(to: DeliveryStatus, column = 'delivery_status'): string {
  const from = deliveryMoveFrom(to);
  if (!from.length) return `${column} IS NULL`;
  return `(${column} IS NULL OR ${statusIn(DELIVERY_STATUSES, from, column)})`;
}
