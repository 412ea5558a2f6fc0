import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { ReplaySecretSource } from '../../common/idempotency/replay-secret';
import { newSigningSecret } from '../../common/outbound-http/signature';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { assertOutboundUrl } from '../../common/url-safety/assert-outbound-url';
import { OutboundUrlPolicy } from '../../common/url-safety/outbound-url-policy';
import { inTransaction } from '../../infra/database/tx';

export const MAX_ENDPOINTS_PER_ORG = 5;

/** More than 5 endpoints in the organization is 422 MAX_ENDPOINTS (docs/contracts/conventions.md, "Webhooks"). */
const ENDPOINT_CAP: OrganizationCap<WebhookEndpoint> = {
  entity: WebhookEndpoint,
  max: MAX_ENDPOINTS_PER_ORG,
  lockSpace: 'webhooksCap',
  refusal: () =>
    new ApiError('MAX_ENDPOINTS', `An organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`),
};

@Injectable()
export class WebhooksService implements ReplaySecretSource {
  private readonly urlPolicy: OutboundUrlPolicy;

  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urlPolicy = OutboundUrlPolicy.fromConfig(config);
  }

  /** For an idempotent replay of the create: the endpoint's live secret, null once it is deleted. */
  currentSecret(world: World, id: string): Promise<string | null> {
    return this.endpoints.findSecret(world, id);
  }

  list(world: World): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(world);
  }

  /** The endpoint belongs to the creating key's world and receives that world's events only. */
  async create(world: World, dto: CreateWebhookDto): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await assertOutboundUrl(dto.url, this.urlPolicy);
    const secret = newSigningSecret();
    const endpoint = await inTransaction(this.dataSource, async (m) => {
      // The cap is per organization: test and live endpoints count together (docs/contracts/conventions.md).
      await assertBelowCap(m, ENDPOINT_CAP, world.organizationId);
      return this.endpoints.insert(m, world, {
        url: dto.url,
        events: dto.events,
        secret,
        description: dto.description ?? null,
      });
    });
    return { endpoint, secret };
  }

  async update(world: World, id: string, dto: UpdateWebhookDto): Promise<WebhookEndpoint> {
    await this.get(world, id);
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
    if (Object.keys(changes).length) await this.endpoints.update(world, id, changes);
    return this.get(world, id);
  }

  /** Deleting the row is what cancels pending deliveries: a retry whose endpoint is gone stops there. */
  async remove(world: World, id: string): Promise<void> {
    if (!(await this.endpoints.delete(world, id))) throw ApiError.notFound('Webhook endpoint');
  }

  /** The old secret is dead from this commit on: deliveries read the current secret when they send. */
  async rotateSecret(world: World, id: string): Promise<string> {
    const secret = newSigningSecret();
    if (!(await this.endpoints.update(world, id, { secret }))) throw ApiError.notFound('Webhook endpoint');
    return secret;
  }

  async get(world: World, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(world, id);
    if (!endpoint) throw ApiError.notFound('Webhook endpoint');
    return endpoint;
  }
}
