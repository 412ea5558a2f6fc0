import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { SecretBox } from '../../infra/secrets/secret-box';
import { MessagingAccount } from './messaging-account.entity';

/**
 * A messaging account's own provider token, sealed with SECRETS_KEY at rest. Without SECRETS_KEY no token can be
 * stored (there is no default key to fall back on), and a stored one cannot be used.
 */
@Injectable()
export class MessagingCredentials {
  private readonly box?: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = config.secretsKey ? new SecretBox(config.secretsKey) : undefined;
  }

  seal(token: string): string {
    if (!this.box) {
      throw new ApiError(
        'INVALID_STATE',
        "accessToken: an account's own token is stored encrypted and SECRETS_KEY is not set on this deployment",
      );
    }
    return this.box.seal(token);
  }

  /**
   * The account's own token; undefined when it has none (the process-wide token serves it). Throws when one is
   * stored but cannot be opened (SECRETS_KEY missing or changed): sending with another token would be wrong.
   */
  ownToken(account: Pick<MessagingAccount, 'id' | 'accessTokenSealed'>): string | undefined {
    if (!account.accessTokenSealed) return undefined;
    const token = this.box?.open(account.accessTokenSealed);
    if (!token) {
      throw new ApiError(
        'MESSAGING_API_ERROR',
        `Messaging account ${account.id}: its stored access token cannot be decrypted with this SECRETS_KEY`,
      );
    }
    return token;
  }
}
