import { Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ProviderCallback } from '../../../../common/auth/access.decorators';
import { ApiError } from '../../../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { WhatsAppConfig, whatsAppConfig } from './whatsapp-config';
import { isValidHubSignature } from './whatsapp-signature';
import { WhatsAppWebhookService } from './whatsapp-webhook.service';
import { WhatsAppWebhookPayload } from './whatsapp-graph.types';

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The WhatsApp Cloud API webhook (docs/providers.md) (verify-token handshake, then signed messages and statuses).
 * Excluded from our OpenAPI documents: the bodies are Meta's contract (docs/providers.md), not ours.
 */
@ApiExcludeController()
@ProviderCallback()
@Controller('platform/whatsapp/webhook')
export class WhatsAppWebhookController {
  private readonly settings: WhatsAppConfig;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly webhook: WhatsAppWebhookService,
  ) {
    this.settings = whatsAppConfig(config);
  }

  /** Meta subscribes the URL by echoing `hub.challenge` when `hub.verify_token` is ours. */
  @Get()
  verify(@Query() query: Record<string, string | undefined>, @Res({ passthrough: true }) reply: FastifyReply): string {
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    const expected = this.settings.verifyToken;
    if (query['hub.mode'] !== 'subscribe' || !token || !expected || !sameText(token, expected) || !challenge) {
      throw new ApiError('UNAUTHORIZED', 'Webhook verification failed');
    }
    void reply.type('text/plain; charset=utf-8');
    return challenge;
  }

  /** Verified against the raw bytes before anything is read; a bad signature stores nothing. */
  @Post()
  @HttpCode(200)
  async receive(@Req() request: RawBodyRequest<FastifyRequest>): Promise<{ received: true }> {
    const header = request.headers['x-hub-signature-256'];
    const secret = this.settings.appSecret;
    const signature = typeof header === 'string' ? header : undefined;
    if (!secret || !request.rawBody || !isValidHubSignature(request.rawBody, signature, secret)) {
      throw new ApiError('UNAUTHORIZED', 'Invalid X-Hub-Signature-256');
    }
    await this.webhook.handle((request.body ?? {}) as WhatsAppWebhookPayload);
    return { received: true };
  }
}
