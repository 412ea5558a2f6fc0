import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { ReplaySecretSource } from '../../common/idempotency/replay-secret';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { assertOutboundUrl } from '../../common/url-safety/assert-outbound-url';
import { OutboundUrlPolicy } from '../../common/url-safety/outbound-url-policy';

export const MAX_ENDPOINTS_PER_ORG = 5;

/** Spec: more than 5 endpoints in the organization is 422 MAX_ENDPOINTS. */
const ENDPOINT_CAP: OrganizationCap<WebhookEndpoint> = {
  entity: WebhookEndpoint,
  max: MAX_ENDPOINTS_PER_ORG,
  lockSpace: 0x77656268, // "webh"
  refusal: () =>
    new ApiError('MAX_ENDPOINTS', `An organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`),
};

/** 256 random bits; the prefix makes a leaked secret recognisable to secret scanners. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

@Injectable()
export class WebhooksService implements ReplaySecretSource {
  private readonly urlPolicy: OutboundUrlPolicy;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urlPolicy = OutboundUrlPolicy.fromConfig(config);
  }

  /** For an idempotent replay of the create: the endpoint's live secret, null once it is deleted. */
  async currentSecret(organizationId: string, id: string): Promise<string | null> {
    const endpoint = await this.endpoints.findOne({
      where: { id, organizationId },
      select: { id: true, secret: true },
    });
    return endpoint?.secret ?? null;
  }

  list(organizationId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.find({ where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async create(organizationId: string, dto: CreateWebhookDto): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await assertOutboundUrl(dto.url, this.urlPolicy);
    const secret = newSecret();
    const endpoint = await this.dataSource.transaction(async (m) => {
      await assertBelowCap(m, ENDPOINT_CAP, organizationId);
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
      await assertOutboundUrl(dto.url, this.urlPolicy);
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

  async get(organizationId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOne({ where: { id, organizationId } });
    if (!endpoint) throw ApiError.notFound('Webhook endpoint');
    return endpoint;
  }
}
