/**
 * Where an inbound message came from beyond its sender (docs/providers.md, "Inbound messages"): the message it
 * answers or was forwarded as (`context`), and the ad or post the user clicked to write (`referral`). Kept on the
 * message as the provider reported them, bounded like every other inbound field.
 */
export interface MessageContext {
  /** The provider's id of the message this one replies to (a reply, or a question about a product). */
  providerMessageId: string | null;
  /** The sender of that message as the provider names it (our number's, for a reply to us). */
  from: string | null;
  forwarded: boolean;
  /** Forwarded more than five times (WhatsApp's "forwarded many times"). */
  frequentlyForwarded: boolean;
}

export interface MessageReferral {
  /** `ad` or `post`. */
  sourceType: string | null;
  sourceId: string | null;
  sourceUrl: string | null;
  headline: string | null;
  body: string | null;
  /** `image` or `video`. */
  mediaType: string | null;
  /** Click-to-WhatsApp click id, which ad reporting joins on. */
  ctwaClid: string | null;
}
