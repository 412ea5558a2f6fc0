import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ConfigError } from '../../infra/config/app-config';
import { SecretBox } from '../../infra/secrets/secret-box';
import { MessagingAccountsRepository } from './messaging-accounts.repository';

/**
 * At start-up: every messaging account's stored access token must open with this SECRETS_KEY (set, and the key it
 * was sealed with). In production a failure stops start-up with one line (no secret printed); elsewhere it is a
 * warning, so a developer database with old tokens still starts.
 */
@Injectable()
export class SealedTokensCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger(SealedTokensCheck.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: MessagingAccountsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const problem = await this.problem(this.config);
    if (!problem) return;
    if (this.config.env === 'production') throw new ConfigError(problem);
    this.logger.warn(problem);
  }

  /** The one-line refusal for this configuration and the stored tokens, or null when all open. */
  async problem(config: Pick<AppConfig, 'secretsKey'>): Promise<string | null> {
    const tokens = await this.accounts.sealedTokens();
    if (!tokens.length) return null;
    if (!config.secretsKey) {
      return `Invalid environment: SECRETS_KEY is required: ${tokens.length} messaging account(s) store their own access token`;
    }
    const box = new SecretBox(config.secretsKey);
    const unreadable = tokens.filter((sealed) => box.open(sealed) === null).length;
    if (!unreadable) return null;
    return (
      `Invalid environment: SECRETS_KEY does not open the access tokens of ${unreadable} messaging account(s) ` +
      '(sealed under another key); restore the key or set those tokens again'
    );
  }
}
