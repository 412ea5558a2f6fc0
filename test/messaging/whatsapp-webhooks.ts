import type {
  WebhookEventNotification,
  WebhookEventNotificationMessageTemplateStatusUpdateChanges,
  WebhookEventNotificationMessagesChanges,
} from '@great-detail/whatsapp' with { 'resolution-mode': 'import' };

/*
 * Webhook bodies as Meta sends them, typed by the SDK's WebhookEventNotification (what the adapter reads is
 * checked against the same types in src/.../whatsapp-graph.types.ts).
 */

type Change = WebhookEventNotification['entry'][number]['changes'][number];
type MessagesValue = WebhookEventNotificationMessagesChanges['value'];
export type InboundMessage = NonNullable<MessagesValue['messages']>[number];
type Status = NonNullable<MessagesValue['statuses']>[number];

export const webhookOf = (wabaId: string, change: Change): WebhookEventNotification => ({
  object: 'whatsapp_business_account',
  entry: [{ id: wabaId, changes: [change] }],
});

const value = (phoneNumberId: string, rest: Partial<MessagesValue>): MessagesValue =>
  ({
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550100100', phone_number_id: phoneNumberId },
    ...rest,
  }) as MessagesValue;

export function statusChange(
  phoneNumberId: string,
  id: string,
  status: Status['status'],
  recipient: string,
  errors?: Array<{ code: number; title: string; message?: string; error_data?: { details: string } }>,
  /** The send's `biz_opaque_callback_data`, which Meta echoes in each of the message's statuses. */
  callbackData?: string,
): Change {
  const s = {
    id,
    status,
    // Unix seconds as a string, as Meta sends them (the SDK types a number).
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: recipient,
    ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}),
    ...(errors ? { errors } : {}),
  } as unknown as Status;
  return { field: 'messages', value: value(phoneNumberId, { statuses: [s] }) };
}

/** A user's message; `user` names them by phone (`wa_id`, as `from`) and/or by business-scoped id only. */
export function messageChange(
  phoneNumberId: string,
  user: { phone?: string; userId?: string; name?: string },
  message: Record<string, unknown> & { id: string; type: string },
): Change {
  const contact = {
    profile: { name: user.name ?? 'Ann Lee' },
    ...(user.phone ? { wa_id: user.phone } : {}),
    ...(user.userId ? { user_id: user.userId } : {}),
  };
  const m = {
    timestamp: String(Math.floor(Date.now() / 1000)),
    ...(user.phone ? { from: user.phone } : {}),
    ...(user.userId ? { from_user_id: user.userId } : {}),
    ...message,
  } as unknown as InboundMessage;
  return { field: 'messages', value: value(phoneNumberId, { contacts: [contact], messages: [m] }) };
}

export function templateStatusChange(
  name: string,
  language: string,
  event: WebhookEventNotificationMessageTemplateStatusUpdateChanges['value']['event'],
): Change {
  return {
    field: 'message_template_status_update',
    value: {
      message_template_id: 1234567,
      message_template_name: name,
      message_template_language: language,
      event,
      reason: 'NONE',
    } as WebhookEventNotificationMessageTemplateStatusUpdateChanges['value'],
  };
}
