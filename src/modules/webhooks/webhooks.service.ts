import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { assertWebhookUrl } from './webhook-url';

export const MAX_ENDPOINTS_PER_ORG = 5;
/** First key of the two-key advisory lock, so this lock never collides with another feature's per-org lock. */
const ENDPOINT_LIMIT_LOCK = 0x77656268; // "webh"

/** 256 random bits; the prefix makes a leaked secret recognisable to secret scanners. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(organizationId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.find({ where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Counting and inserting under a per-organization transaction lock makes the limit hold under concurrent
   * creates: the second transaction counts only after the first has committed.
   */
  async create(organizationId: string, dto: CreateWebhookDto): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    assertWebhookUrl(dto.url, this.config.webhookAllowInsecure);
    const secret = newSecret();
    const endpoint = await this.dataSource.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ENDPOINT_LIMIT_LOCK, organizationId]);
      const count = await m.count(WebhookEndpoint, { where: { organizationId } });
      if (count >= MAX_ENDPOINTS_PER_ORG) {
        throw new ApiError(
          'MAX_ENDPOINTS',
          `An organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`,
        );
      }
      const row = m.create(WebhookEndpoint, {
        id: uuidv7(),
        organizationId,
        url: dto.url,
        events: dto.events,
        secret,
        description: dto.description ?? null,
      });
      return m.save(row);
    });
    return { endpoint, secret };
  }

  async update(organizationId: string, id: string, dto: UpdateWebhookDto): Promise<WebhookEndpoint> {
    await this.get(organizationId, id);
    const changes: Partial<WebhookEndpoint> = {};
    if (dto.url !== undefined) {
      assertWebhookUrl(dto.url, this.config.webhookAllowInsecure);
      changes.url = dto.url;
    }
    if (dto.events !== undefined) changes.events = dto.events;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.isActive === true) {
      // Re-enabling starts the count afresh, or one more failure would disable it again at once.
      Object.assign(changes, { isActive: true, consecutiveFailures: 0, disabledAt: null });
    } else if (dto.isActive === false) {
      changes.isActive = false;
    }
    if (Object.keys(changes).length) await this.endpoints.update({ id, organizationId }, changes);
    return this.get(organizationId, id);
  }

  /** Deleting the row is what cancels pending deliveries: a retry whose endpoint is gone stops there. */
  async remove(organizationId: string, id: string): Promise<void> {
    const result = await this.endpoints.delete({ id, organizationId });
    if (!result.affected) throw ApiError.notFound('Webhook endpoint');
  }

  /** The old secret is dead from this commit on: deliveries read the current secret when they send. */
  async rotateSecret(organizationId: string, id: string): Promise<string> {
    const secret = newSecret();
    const result = await this.endpoints.update({ id, organizationId }, { secret });
    if (!result.affected) throw ApiError.notFound('Webhook endpoint');
    return secret;
  }

  private async get(organizationId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOne({ where: { id, organizationId } });
    if (!endpoint) throw ApiError.notFound('Webhook endpoint');
    return endpoint;
  }
}
