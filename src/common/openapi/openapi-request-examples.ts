/**
 * One valid request body per operation (each passes the route's validation; ids and numbers must of course be
 * the caller's own; test/docs/request-examples.e2e-spec.ts posts every one). Numbers are fictional 555-01xx ones,
 * never the demo's (src/cli/seed-demo.ts), and URLs use reserved example domains, so a pasted example reaches no
 * real data or receiver. Keyed by operationId; an operation with a body and no entry here falls back to an example
 * built from its schema's property examples (openapi-operation-docs.ts), and Redocly's
 * `no-invalid-media-type-examples` checks every one against its schema.
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createCall: {
    to: '+14155550187',
    from: '+14155550100',
    firstMessage: 'Hi {{name}}, this is Acme calling about your order.',
    variableValues: { name: 'Ada' },
  },
  createCampaign: {
    name: 'November reminders',
    from: '+14155550100',
    audience: { rows: [{ to: '+14155550187', variableValues: { name: 'Ada' } }] },
  },
  createContact: {
    title: 'Ada Lovelace',
    phone: '+14155550187',
    email: 'ada@example.com',
    tags: ['vip'],
    customFields: { plan: 'gold', visits: 3 },
  },
  updateContact: { tags: ['vip', 'callback'], notes: 'Prefers mornings' },
  createCase: {
    title: 'Order follow-up',
    prompt: 'You call {{contact.title}} about order {{order}}. Be brief and friendly.',
    firstMessage: 'Hi {{contact.title}}, this is Acme about your order.',
    variables: [{ name: 'order', source: 'custom', defaultValue: 'your last order', required: false }],
    tags: ['orders'],
  },
  updateCase: { firstMessage: 'Hello {{contact.title}}, Acme here.' },
  createOutboundAssistant: {
    name: 'Friendly outreach',
    voice: { provider: '11labs', voiceId: 'burt', stability: 0.5 },
    model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 },
    transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
    dialKeypadFunctionEnabled: false,
    backgroundDenoisingEnabled: true,
  },
  updateOutboundAssistant: { model: { provider: 'openai', model: 'gpt-4o', temperature: 0.3 } },
  updateInboundAssistant: { name: 'Front desk' },
  createWebhook: {
    url: 'https://example.com/hooks/voice',
    events: ['call.ended', 'call.failed'],
    description: 'CRM sync',
  },
  updateWebhook: { isActive: false },
  sendMessage: { type: 'text', conversationId: '0b5c8e0e-4f59-4c53-9d0f-2f6f1d0f8a11', text: 'Tuesday 10:00 works' },
};
