import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DELIVERY_STATUSES, Message, SENDER_TYPES } from './message.entity';
import { MESSAGE_KINDS, MessagePayload } from './message-payload';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';

/** Where the API streams a message's media file from the provider (GET, scope messaging:read). */
export const mediaPathOf = (messageId: string) => `/api/v1/messaging/messages/${messageId}/media`;

export class MessageErrorResponse {
  @ApiProperty({ description: "The provider's numeric error code (WhatsApp: Meta's, e.g. 131047)", example: 131047 })
  code: number;
  @ApiProperty({ example: 'Re-engagement message' }) title: string;
}

class MessageContextResponse {
  @ApiProperty({ type: String, nullable: true, description: "The provider's id of the message replied to" })
  providerMessageId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Who sent that message, as the provider names them' })
  from: string | null;
  @ApiProperty() forwarded: boolean;
  @ApiProperty({ description: 'Forwarded many times (WhatsApp: more than five)' }) frequentlyForwarded: boolean;
}

class MessageReferralResponse {
  @ApiProperty({ type: String, nullable: true, example: 'ad', description: '`ad` or `post`' })
  sourceType: string | null;
  @ApiProperty({ type: String, nullable: true }) sourceId: string | null;
  @ApiProperty({ type: String, nullable: true }) sourceUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) headline: string | null;
  @ApiProperty({ type: String, nullable: true }) body: string | null;
  @ApiProperty({ type: String, nullable: true, description: '`image` or `video`' }) mediaType: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Click-to-WhatsApp click id' }) ctwaClid: string | null;
}

const PAYLOAD_DOC = `Extension: what the message carries beyond \`text\`, by \`messageType\` (null for text and template):
image, audio, video, document, sticker: {kind: "media", mimeType, sha256, filename (documents), animated (stickers)};
location: {kind: "location", latitude, longitude, name, address, url};
contacts: {kind: "contacts", contacts: [{name, phones[], emails[]}]} (at most 20 contacts, 20 phones and emails each);
reaction: {kind: "reaction", providerMessageId (the message reacted to), emoji (empty: reaction removed)};
interactive, button: {kind: "reply", replyType (button_reply, list_reply, nfm_reply, button), id, title, description};
system (the provider's notice that the user changed number or provider id; the conversation follows them):
{kind: "system", systemType (WhatsApp: user_changed_number, ...), newPhone (E.164), newUserId};
unsupported: {kind: "unsupported", providerType, errorCode, errorTitle}.`;

export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction: string;
  @ApiProperty({
    enum: SENDER_TYPES,
    description:
      '`user` (inbound), `bot` (sent through the API or by the chat agent) or, extension, `agent` (a person replying from the console)',
    example: 'user',
  })
  senderType: string;
  @ApiProperty({
    enum: MESSAGE_KINDS,
    description:
      'What the message is; `text` is the readable summary for every kind (a caption, a location name, an emoji)',
    example: 'text',
  })
  messageType: string;
  @ApiProperty() text: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'For media: the path of our own route that streams the file from the provider ' +
      '(`/api/v1/messaging/messages/{id}/media`, relative to the API origin); otherwise null',
  })
  mediaUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) mediaCaption: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "Extension: the provider's media id" })
  mediaId: string | null;
  @ApiProperty({
    type: String,
    // A copy: with `nullable`, the OpenAPI scanner appends null to the array it is given.
    enum: [...DELIVERY_STATUSES],
    nullable: true,
    description: 'Outbound: accepted, sent, delivered, read or failed; inbound: null',
    example: 'read',
  })
  deliveryStatus: string | null;
  @ApiPropertyOptional({
    type: MessageErrorResponse,
    nullable: true,
    description: 'Extension: why the provider failed the message (when deliveryStatus is failed)',
  })
  error: MessageErrorResponse | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: PAYLOAD_DOC })
  payload: MessagePayload | null;
  @ApiPropertyOptional({
    type: MessageContextResponse,
    nullable: true,
    description: 'Extension: inbound, the message this one replies to or was forwarded as; null otherwise',
  })
  context: MessageContextResponse | null;
  @ApiPropertyOptional({
    type: MessageReferralResponse,
    nullable: true,
    description: 'Extension: inbound, the ad or post the user clicked to write (click-to-WhatsApp); null otherwise',
  })
  referral: MessageReferralResponse | null;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiLivemode() livemode: boolean;

  static from(m: Message): MessageResponse {
    return {
      id: m.id,
      direction: m.direction,
      senderType: m.senderType,
      messageType: m.messageType,
      text: m.text,
      mediaUrl: m.mediaId ? mediaPathOf(m.id) : m.mediaUrl,
      mediaCaption: m.mediaCaption,
      mediaId: m.mediaId,
      deliveryStatus: m.deliveryStatus,
      error:
        m.deliveryStatus === 'failed' ? { code: m.errorCode ?? 0, title: m.errorTitle ?? 'Delivery failed' } : null,
      payload: m.payload,
      context: m.context ?? null,
      referral: m.referral ?? null,
      timestamp: m.timestamp.toISOString(),
      createdAt: m.createdAt.toISOString(),
      livemode: m.livemode,
    };
  }
}

/** The `data` of the message.* webhook events: the Message, its conversation, and the world it belongs to. */
export class MessageEventDataResponse extends MessageResponse {
  @ApiProperty({ format: 'uuid' }) conversationId: string;

  static of(m: Message): MessageEventDataResponse {
    return { ...MessageResponse.from(m), conversationId: m.conversationId };
  }
}
