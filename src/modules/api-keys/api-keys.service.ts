import { Injectable } from '@nestjs/common';
import { generateApiKey, hashApiKey, hashesEqual, isWellFormedKey, keyHint } from '../../common/auth/api-key-secret';
import { AuthContext } from '../../common/auth/auth-context';
import { KeyAuthenticator } from '../../common/auth/key-authenticator';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { ApiKey } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@Injectable()
export class ApiKeysService implements KeyAuthenticator {
  /** When this process last wrote each key's lastUsedAt; bounds the writes to one a minute per key. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly codec: CursorCodec,
  ) {}

  /**
   * Looks the key up by its hash on every request (one indexed read), so a revocation takes effect at once in
   * every process; no cache can serve a revoked key.
   */
  async authenticate(key: string | undefined): Promise<AuthContext> {
    if (!key || !isWellFormedKey(key)) throw new ApiError('UNAUTHORIZED', 'Missing or invalid X-API-Key');
    const hash = hashApiKey(key);
    const row = await this.keys.findByHash(hash);
    if (!row || !hashesEqual(row.key_hash, hash)) throw new ApiError('UNAUTHORIZED', 'Missing or invalid X-API-Key');
    if (row.revoked_at) throw new ApiError('KEY_REVOKED', 'The API key was revoked');
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) {
      throw new ApiError('KEY_EXPIRED', 'The API key expired');
    }
    this.touch(row.id);
    return {
      organizationId: row.organization_id,
      apiKeyId: row.id,
      scopes: row.scopes,
      livemode: row.environment === 'live',
    };
  }

  async create(organizationId: string, dto: CreateApiKeyDto): Promise<{ entity: ApiKey; key: string }> {
    const environment = dto.environment ?? 'live';
    const key = generateApiKey(environment);
    const entity = await this.keys.insert({
      organizationId,
      name: dto.name ?? 'API key',
      environment,
      keyHash: hashApiKey(key),
      hint: keyHint(key),
      scopes: [...new Set(dto.scopes)],
      expiresAt: dto.expiresAt ? new Date(dto.expiresAt) : null,
      revokedAt: null,
    });
    return { entity, key };
  }

  /** The keys of an organization, newest first (the console's list; never the key itself). */
  list(organizationId: string, query: PageQueryDto): Promise<Page<ApiKey>> {
    return keysetPaginate(this.keys.listQuery(organizationId), {
      alias: 'k',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      filters: { organizationId },
      map: (key) => key,
    });
  }

  /**
   * Records that a key was used, off the request path and at most once a minute per key in this process: a
   * write per request would double the database work of every call, and the console needs minutes, not ms.
   */
  private touch(keyId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < 60_000) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(keyId, now);
    this.keys.touch(keyId).catch(() => {
      // Best effort: a lost "last used" stamp is refreshed by the next request a minute later.
      this.touched.delete(keyId);
    });
  }

  /** Irreversible. Revoking twice keeps the first revocation time. */
  async revoke(keyId: string): Promise<ApiKey> {
    await this.keys.revoke(keyId);
    const key = await this.keys.find(keyId);
    if (!key) throw ApiError.notFound('API key');
    return key;
  }
}
