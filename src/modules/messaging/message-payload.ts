/**
 * What an inbound message carries beyond its text, one shape per kind (docs/providers.md lists them). Stored as
 * JSON on the message and returned as `payload`; the provider's own field names are mapped to ours here, so a
 * second provider fills the same shapes.
 */
export interface MediaPayload {
  kind: 'media';
  mimeType: string | null;
  sha256: string | null;
  /** Documents only. */
  filename: string | null;
  /** Stickers only. */
  animated: boolean | null;
}

export interface LocationPayload {
  kind: 'location';
  latitude: number;
  longitude: number;
  name: string | null;
  address: string | null;
  url: string | null;
}

export interface SharedContact {
  name: string;
  phones: string[];
  emails: string[];
}

export interface ContactsPayload {
  kind: 'contacts';
  contacts: SharedContact[];
}

export interface ReactionPayload {
  kind: 'reaction';
  /** The provider's id of the message reacted to; an empty emoji removes the reaction. */
  providerMessageId: string;
  emoji: string;
}

export interface ReplyPayload {
  kind: 'reply';
  /** `button_reply`, `list_reply`, `nfm_reply` (a flow) or `button` (a template's quick reply). */
  replyType: string;
  id: string | null;
  title: string;
  description: string | null;
}

export interface UnsupportedPayload {
  kind: 'unsupported';
  /** The provider's own type name, when it said one. */
  providerType: string | null;
  errorCode: number | null;
  errorTitle: string | null;
}

/**
 * A notice from the provider about the user rather than from them: they changed their number (`newPhone`, E.164)
 * or the provider's id for them changed (`newUserId`). The conversation follows the user to the new name.
 */
export interface SystemPayload {
  kind: 'system';
  /** The provider's own name of the change (WhatsApp: `user_changed_number`, `customer_changed_number`, ...). */
  systemType: string | null;
  newPhone: string | null;
  newUserId: string | null;
}

export type MessagePayload =
  | MediaPayload
  | LocationPayload
  | ContactsPayload
  | ReactionPayload
  | ReplyPayload
  | UnsupportedPayload
  | SystemPayload;

/** The kinds of message kept; `template` and `text` go both ways, the rest arrive from users. */
export const MESSAGE_KINDS = [
  'text',
  'template',
  'image',
  'audio',
  'video',
  'document',
  'sticker',
  'location',
  'contacts',
  'reaction',
  'interactive',
  'button',
  'system',
  'unsupported',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Kinds whose file the provider keeps and our media route streams. */
export const MEDIA_KINDS = ['image', 'audio', 'video', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const isMediaKind = (kind: string): kind is MediaKind => (MEDIA_KINDS as readonly string[]).includes(kind);
