import { Injectable } from '@nestjs/common';
import { Transform, pipeline } from 'node:stream';
import { ApiError } from '../../../../common/errors/api-error';
import { MessagingAccount } from '../../../messaging/messaging-account.entity';
import type { MediaStream } from '../../../messaging/providers/messaging-provider';
import { WhatsAppGraphClient } from './whatsapp-graph-client';
import type { GraphError, GraphMediaAnswer } from './whatsapp-graph.types';

/**
 * A media file from Meta with the account's token: `GET /{media-id}` tells where it is for five minutes, then
 * that URL gives the bytes. Bounded by WHATSAPP_MEDIA_MAX_BYTES, before the first byte when Meta states the size
 * and while streaming else.
 */
@Injectable()
export class WhatsAppMedia {
  constructor(private readonly graph: WhatsAppGraphClient) {}

  async open(account: MessagingAccount, mediaId: string): Promise<MediaStream> {
    const { token } = this.graph.credentialsOf(account);
    const max = this.graph.settings.mediaMaxBytes;
    const where = await this.graph.json<GraphMediaAnswer>(token, 'GET', `/${encodeURIComponent(mediaId)}`);
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
