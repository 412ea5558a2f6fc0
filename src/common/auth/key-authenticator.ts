import { AuthContext } from './auth-context';

/** What the access guard needs from the API-keys module: a key in, an organization and scopes out (or an ApiError). */
export abstract class KeyAuthenticator {
  abstract authenticate(key: string | undefined): Promise<AuthContext>;
}
