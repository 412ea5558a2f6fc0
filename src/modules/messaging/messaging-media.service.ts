import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { World } from '../../common/auth/world';
import { MessagesRepository } from './messages.repository';
import { MessagingAccountsRepository } from './messaging-accounts.repository';
import { MessagingPlatforms } from './providers/messaging-platforms';
import { MediaStream } from './providers/messaging-provider';

/**
 * A message's media file, fetched from the platform that carried the message and streamed through (never
 * stored); the platform bounds its size (WHATSAPP_MEDIA_MAX_BYTES).
 */
@Injectable()
export class MessagingMediaService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly accounts: MessagingAccountsRepository,
    private readonly platforms: MessagingPlatforms,
  ) {}

  async open(world: World, messageId: string): Promise<MediaStream> {
    const message = await this.messages.find(world, messageId);
    if (!message?.mediaId) throw ApiError.notFound('Message media');
    const account = await this.accounts.findOrFail(message.accountId);
    // A message of the simulator (every test message) never went through the provider: its media id names no file
    // of ours there, and the provider's token must never be spent on it.
    const carrier = message.livemode ? account : { platform: 'simulator' as const };
    return this.platforms.of(carrier).openMedia(account, message.mediaId);
  }
}
