import { toE164 } from '../../../../common/validation/e164';
import type { MessageContext, MessageReferral } from '../../../messaging/message-origin';
import { MessageKind, MessagePayload, SharedContact, isMediaKind } from '../../../messaging/message-payload';
import { WhatsAppChangeValue, WhatsAppInboundMessage } from './whatsapp-graph.types';

/** Bounds on what one shared-contacts message keeps (docs/providers.md). */
const MAX_SHARED_CONTACTS = 20;
const MAX_CONTACT_ENTRIES = 20;
const MAX_FIELD = 500;

/** One user message from a webhook, in our terms. */
export interface ReadInbound {
  /** E.164, or empty for a user Meta names only by business-scoped id. */
  from: string;
  userId: string | null;
  name?: string;
  providerMessageId: string;
  messageType: MessageKind;
  /** A readable summary whatever the kind: the text, a caption, a location's name, an emoji, a reply's title. */
  text: string;
  mediaId: string | null;
  mediaCaption: string | null;
  payload: MessagePayload | null;
  context: MessageContext | null;
  referral: MessageReferral | null;
  timestamp: Date;
}

const str = (value: unknown, max = MAX_FIELD): string | null =>
  typeof value === 'string' && value ? value.slice(0, max) : null;
const num = (value: unknown): number | null => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/**
 * Maps one message of a `messages` webhook to what we store; null when it names no user at all (neither `from`
 * nor a business-scoped id) or carries no id. Every kind is kept: unknown kinds as `unsupported`.
 */
export function readInbound(value: WhatsAppChangeValue, message: WhatsAppInboundMessage): ReadInbound | null {
  if (!message.id) return null;
  const contact = value.contacts?.find(
    (c) => (message.from && c.wa_id === message.from) || (message.from_user_id && c.user_id === message.from_user_id),
  );
  const userId = message.from_user_id ?? contact?.user_id ?? null;
  // The Cloud API sends the user's number as digits with the country code, without `+`.
  const from = message.from ? toE164(`+${message.from.replace(/^\+/, '')}`) : '';
  if (from === null || (!from && !userId)) return null;
  const seconds = Number(message.timestamp);
  return {
    from,
    userId,
    name: contact?.profile?.name,
    providerMessageId: message.id,
    timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
    context: contextOf(message),
    referral: referralOf(message),
    ...content(message),
  };
}

function contextOf(message: WhatsAppInboundMessage): MessageContext | null {
  const c = message.context;
  if (!c || typeof c !== 'object') return null;
  return {
    providerMessageId: str(c.id, 200),
    from: str(c.from, 200),
    forwarded: c.forwarded === true,
    frequentlyForwarded: c.frequently_forwarded === true,
  };
}

function referralOf(message: WhatsAppInboundMessage): MessageReferral | null {
  const r = message.referral;
  if (!r || typeof r !== 'object') return null;
  return {
    sourceType: str(r.source_type, 50),
    sourceId: str(r.source_id, 200),
    sourceUrl: str(r.source_url, 2048),
    headline: str(r.headline),
    body: str(r.body, 4096),
    mediaType: str(r.media_type, 50),
    ctwaClid: str(r.ctwa_clid, 500),
  };
}

type Content = Pick<ReadInbound, 'messageType' | 'text' | 'mediaId' | 'mediaCaption' | 'payload'>;
const plain = (messageType: MessageKind, text: string, payload: MessagePayload | null = null): Content => ({
  messageType,
  text,
  mediaId: null,
  mediaCaption: null,
  payload,
});

function content(message: WhatsAppInboundMessage): Content {
  const type = message.type ?? 'unsupported';
  if (type === 'text') return plain('text', message.text?.body ?? '');
  if (isMediaKind(type)) {
    const media = message[type] ?? {};
    const caption = str(media.caption, 4096);
    return {
      messageType: type,
      text: caption ?? '',
      mediaId: str(media.id, 200),
      mediaCaption: caption,
      payload: {
        kind: 'media',
        mimeType: str(media.mime_type, 200),
        sha256: str(media.sha256, 200),
        filename: str(media.filename, 240),
        animated: typeof media.animated === 'boolean' ? media.animated : null,
      },
    };
  }
  if (type === 'location') {
    const l = (message.location ?? {}) as Record<string, unknown>;
    const latitude = num(l.latitude);
    const longitude = num(l.longitude);
    if (latitude !== null && longitude !== null) {
      const name = str(l.name);
      const address = str(l.address);
      const payload = { kind: 'location' as const, latitude, longitude, name, address, url: str(l.url, 2048) };
      return plain('location', [name, address].filter(Boolean).join(', ') || `${latitude}, ${longitude}`, payload);
    }
  }
  if (type === 'contacts' && Array.isArray(message.contacts)) {
    const contacts = message.contacts.slice(0, MAX_SHARED_CONTACTS).map(sharedContact);
    return plain('contacts', contacts.map((c) => c.name).join(', '), { kind: 'contacts', contacts });
  }
  if (type === 'reaction' && message.reaction?.message_id) {
    const emoji = message.reaction.emoji ?? '';
    return plain('reaction', emoji, { kind: 'reaction', providerMessageId: message.reaction.message_id, emoji });
  }
  if (type === 'interactive' && message.interactive) {
    const i = message.interactive;
    const reply = i.button_reply ?? i.list_reply;
    const title = reply?.title ?? i.nfm_reply?.body ?? '';
    const description = str(i.list_reply?.description);
    return plain('interactive', title, {
      kind: 'reply',
      replyType: i.type ?? 'unknown',
      id: str(reply?.id ?? i.nfm_reply?.name),
      title,
      description,
    });
  }
  if (type === 'button' && message.button) {
    const title = message.button.text ?? '';
    return plain('button', title, {
      kind: 'reply',
      replyType: 'button',
      id: str(message.button.payload),
      title,
      description: null,
    });
  }
  if (type === 'system' && message.system) {
    const system = message.system;
    const newNumber = str(system.wa_id ?? system.new_wa_id, 32);
    const payload = {
      kind: 'system' as const,
      systemType: str(system.type, 100),
      newPhone: newNumber ? toE164(`+${newNumber.replace(/^\+/, '')}`) : null,
      newUserId: str(system.user_id, 200),
    };
    return plain('system', str(system.body, 4096) ?? '', payload);
  }
  const error = message.errors?.[0];
  return plain('unsupported', '', {
    kind: 'unsupported',
    providerType: type === 'unsupported' ? null : type,
    errorCode: error?.code ?? null,
    errorTitle: str(error?.title ?? error?.message),
  });
}

function sharedContact(raw: unknown): SharedContact {
  const c = (raw ?? {}) as { name?: { formatted_name?: string }; phones?: unknown[]; emails?: unknown[] };
  const field = (list: unknown[] | undefined, key: string) =>
    (Array.isArray(list) ? list : [])
      .slice(0, MAX_CONTACT_ENTRIES)
      .map((e) => str((e as Record<string, unknown>)?.[key]))
      .filter((v): v is string => v !== null);
  return {
    name: str(c.name?.formatted_name) ?? '',
    phones: field(c.phones, 'phone'),
    emails: field(c.emails, 'email'),
  };
}
