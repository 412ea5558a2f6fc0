import type { OpenAPIObject } from '@nestjs/swagger';
import { DOMAIN_EVENT_TYPES } from '../outbox/domain-event';
import { exampleOf } from '../../common/openapi/openapi-operation-docs';

type Json = Record<string, any>;

/**
 * The resource each event family carries in `data` (call events: the Call without `transcript`; message events:
 * the Message with its conversationId and livemode; conversation events: the Conversation).
 */
const DATA_SCHEMA: Record<string, string> = {
  call: 'Call',
  contact: 'Contact',
  campaign: 'Campaign',
  message: 'MessageEventData',
  conversation: 'Conversation',
  scenario_run: 'ScenarioRunResponse',
};

/** Event families beyond the spec's Events table: the dialer's campaigns and messaging. */
const EXTENSION_FAMILIES = ['campaign', 'message', 'conversation', 'scenario_run'];

const DELIVERY = `Delivered as \`POST\` with a JSON body to every active endpoint of the event's world (\`livemode\`) subscribed
to the event.
Signature: \`X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint
secret>\`; compare in constant time and refuse a \`t\` older than your tolerance (we suggest 300 s). The signature
is computed when each attempt is sent, so a rotated secret applies to pending retries. \`X-Webhook-Id\` is the same
on every attempt of one event to one endpoint: deduplicate on it. Any 2xx within the timeout is success;
otherwise the delivery is retried after about 10 s, 60 s and 300 s (\`WEBHOOK_RETRY_DELAYS_MS\`), each attempt
timing out after 10 s (\`WEBHOOK_TIMEOUT_MS\`, the whole exchange: a 2xx that comes later is a failed attempt).
At most 16 attempts are in flight per endpoint (\`WEBHOOK_ENDPOINT_CONCURRENCY\`) and at most 25 per organization in
one worker (\`WEBHOOK_ORGANIZATION_CONCURRENCY\`); further attempts wait their turn, so order across events is not
guaranteed. A delivery whose last retry failed counts as failed; 10 failed deliveries in a row disable
the endpoint (\`isActive: false\`; re-enable with PATCH), any success resets the count.`;

/**
 * The outgoing webhooks as a contract: OpenAPI 3.0 has no `webhooks`, so they are listed under `x-webhooks`
 * (the same shape as 3.1's `webhooks`, which Redocly renders), one operation per event, each with its payload
 * schema (`<Family>WebhookEvent` in components) and the signature headers. Built from the outbox's event list,
 * so an event added there is documented without further work.
 */
export function applyWebhooks(document: OpenAPIObject): void {
  const schemas = document.components!.schemas as Json;
  const webhooks: Json = {};
  for (const event of DOMAIN_EVENT_TYPES as readonly string[]) {
    const family = event.split('.')[0];
    const name = `${family[0].toUpperCase()}${family.slice(1)}WebhookEvent`;
    const events = (DOMAIN_EVENT_TYPES as readonly string[]).filter((e) => e.startsWith(`${family}.`));
    const data = schemas[DATA_SCHEMA[family]]
      ? { $ref: `#/components/schemas/${DATA_SCHEMA[family]}` }
      : { type: 'object', additionalProperties: true };
    schemas[name] = {
      type: 'object',
      required: ['event', 'timestamp', 'livemode', 'data'],
      properties: {
        event: { type: 'string', enum: events },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event happened (ISO 8601).' },
        livemode: {
          type: 'boolean',
          description:
            'Extension: the world of what the event describes (false: test data). An endpoint receives only ' +
            "the events of its own world (its creating key's), so a receiver can also refuse the other world.",
        },
        data,
      },
    };
    webhooks[event] = {
      post: {
        operationId: `on${event.replace(/(^|\.)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`,
        summary: `The ${event} event`,
        description: DELIVERY,
        tags: ['Webhooks'],
        parameters: [
          {
            name: 'X-Webhook-Signature',
            in: 'header',
            required: true,
            schema: { type: 'string', example: 't=1735725600,v1=5f2b...e9' },
          },
          { name: 'X-Webhook-Id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        // Receivers are not called with our API key: the signature authenticates the request.
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${name}` },
              example: {
                event,
                timestamp: '2025-01-01T10:01:30.000Z',
                livemode: true,
                data: exampleOf(data, schemas),
              },
            },
          },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
      },
    };
  }
  // Events beyond the spec's table are extensions, marked as extension routes are.
  for (const [event, item] of Object.entries(webhooks)) {
    if (EXTENSION_FAMILIES.includes(event.split('.')[0])) item.post['x-extension'] = true;
  }
  (document as Json)['x-webhooks'] = webhooks;
}
