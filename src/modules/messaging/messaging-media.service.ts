import { Injectable } from '@nestjs/common';
import { Readable, Transform, pipeline } from 'node:stream';
import { ApiError } from '../../common/errors/api-error';
import { World } from '../../common/auth/world';
import { MessagesRepository } from './messages.repository';
import { MessagingAccount } from './messaging-account.entity';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { simulatedMedia } from './providers/simulator/simulated-media';
import { WhatsAppGraphClient } from './providers/whatsapp/whatsapp-graph-client';
import type { GraphError, GraphMediaAnswer } from './providers/whatsapp/whatsapp-graph.types';

export interface MediaStream {
  body: Readable;
  contentType: string;
  length: number | null;
}

/**
 * A message's media file, fetched from the provider with the account's token and streamed through (never
 * stored): `GET /{media-id}` tells where it is for five minutes, then that URL gives the bytes. Bounded by
 * WHATSAPP_MEDIA_MAX_BYTES, before the first byte when the provider states the size and while streaming else.
 */
@Injectable()
export class MessagingMediaService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly accounts: MessagingAccountsRepository,
    private readonly graph: WhatsAppGraphClient,
  ) {}

  async open(world: World, messageId: string): Promise<MediaStream> {
    const message = await this.messages.find(world, messageId);
    if (!message?.mediaId) throw ApiError.notFound('Message media');
    // A message of the simulator (every test message) never went through the provider: its media id names no file
    // of ours there, and the provider's token must never be spent on it.
    if (!message.livemode) return simulatedMedia(message.mediaId);
    const account = await this.accounts.findOrFail(message.accountId);
    if (account.platform === 'simulator') return simulatedMedia(message.mediaId);
    const { token } = this.graph.credentialsOf(account);
    const max = this.graph.settings.mediaMaxBytes;
    const where = await this.graph.json<GraphMediaAnswer>(token, 'GET', `/${encodeURIComponent(message.mediaId)}`);
    if (!where.ok) throw refusal(account, where.status, where.error);
    if (Number(where.body.file_size) > max) throw tooLarge(max);
    const file = await this.graph.download(token, where.body.url);
    if (!file.ok) throw refusal(account, file.status, file.error);
    if (file.body.length !== null && file.body.length > max) {
      file.body.body.destroy();
      throw tooLarge(max);
    }
    const bounded = limit(max);
    // pipeline, not pipe: a client that hangs up destroys `bounded` (the reply does), which must destroy the
    // provider's stream too, and an error of that stream (its timeout) must land on `bounded`, where the reply
    // handles it, never as an uncaught error. The callback is required; the reply already sees every error.
    pipeline(file.body.body, bounded, () => undefined);
    return {
      body: bounded,
      contentType: where.body.mime_type || file.body.type,
      length: file.body.length,
    };
  }
}

const tooLarge = (max: number) =>
  new ApiError('MEDIA_TOO_LARGE', `The media file is larger than ${max} bytes (WHATSAPP_MEDIA_MAX_BYTES)`);

function refusal(account: MessagingAccount, status: number, error: GraphError): ApiError {
  if (status === 404) return ApiError.notFound('Message media (the provider no longer has it)');
  const code = error.code ? ` (Meta error ${error.code})` : '';
  return new ApiError(
    'MESSAGING_API_ERROR',
    `Fetching media for messaging account ${account.id} failed${code}: ${error.message ?? ''}`,
    error.code ? [{ field: 'provider', message: error.message ?? '', providerCode: error.code }] : undefined,
  );
}

/** Fails the stream once more than `max` bytes went through (the provider said no size, or said it wrong). */
function limit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > max ? new Error(`media over ${max} bytes`) : null, chunk);
    },
  });
}
