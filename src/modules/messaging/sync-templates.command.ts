import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { MessagingAccountsService } from './messaging-accounts.service';
import { MessagingTemplateResponse, TemplateSyncResponse } from './messaging-template.response';
import { MessagingPlatforms } from './providers/messaging-platforms';

/**
 * Replaces an account's stored templates with what the provider has (names, languages, bodies, statuses): read
 * every page first, then write in one transaction, so a failed read changes nothing.
 */
@Injectable()
export class SyncTemplatesCommand {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: MessagingAccountsService,
    private readonly platforms: MessagingPlatforms,
  ) {}

  async execute(accountId: string): Promise<TemplateSyncResponse> {
    const account = await this.accounts.mustExist(accountId);
    if (this.config.messagingProvider !== 'whatsapp') {
      throw new ApiError(
        'INVALID_STATE',
        'Templates are synced from WhatsApp; this deployment runs the messaging simulator (MESSAGING_PROVIDER)',
      );
    }
    // Whatever platform the account was made on: the deployment's templates live on WhatsApp.
    const listed = await this.platforms.of({ platform: 'whatsapp' }).readTemplates(account);
    const { synced, removed } = await this.accounts.replaceTemplates(account.id, listed);
    const templates = (await this.accounts.listTemplates(account.id)).map(MessagingTemplateResponse.from);
    return { id: account.id, synced, removed, templates };
  }
}
