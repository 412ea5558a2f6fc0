import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { waitForCall } from '../calls/call-fixtures';
import { eventually } from '../messaging/messaging-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { freePort } from '../support/free-port';

type Json = Record<string, any>;
const DOCUMENT = join(__dirname, '../../openapi/openapi.yaml');
const document = parse(readFileSync(DOCUMENT, 'utf8')) as Json;
const operations = Object.values(document.paths as Json).flatMap((item: Json) =>
  Object.values(item).flatMap((op: Json) => (op?.operationId ? [op.operationId as string] : [])),
);
const exampleOf = (operationId: string): Json =>
  Object.values(document.paths as Json)
    .flatMap((item: Json) => Object.values(item))
    .find((op: Json) => op?.operationId === operationId).requestBody.content['application/json'].example;

/** Prism in validation proxy mode in front of `upstream`; resolves once it says it listens. */
async function startPrism(upstream: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const cli = require.resolve('@stoplight/prism-cli/dist/index.js');
  const child = spawn(
    process.execPath,
    [cli, 'proxy', DOCUMENT, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`prism exited ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, process: child };
}

interface Exchange {
  operationId: string;
  status: number;
  body: any;
  /** What Prism found wrong with the request or the response (its `sl-violations` header, or its error answer). */
  violations: string[];
}

/**
 * Our own OpenAPI document, checked by a strict outside validator: Prism (Stoplight) in validation proxy mode with
 * `--errors` stands between the client and the running app, validates every request and every response against
 * openapi/openapi.yaml, and answers a violation with an error instead of the response. One happy-path request per
 * public operation goes through it, in an order that creates what the later ones need; none may be flagged.
 */
describe('prove: Prism validation proxy over every public operation', () => {
  let t: TestApp;
  let prism: { url: string; process: ChildProcess };
  let receiver: WebhookReceiver;
  let org: TestOrg;
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,50,50', SIMULATOR_CALL_MS: '3000' },
    });
    prism = await startPrism(t.baseUrl);
    org = await createOrg(t);
  });
  afterAll(async () => {
    prism?.process.kill();
    await receiver?.stop();
    await t?.close();
  });

  /** One request through Prism, recorded with what Prism said about it. */
  async function call(operationId: string, method: string, path: string, body?: unknown): Promise<Exchange> {
    const res = await fetch(`${prism.url}${path}`, {
      method,
      headers: { 'x-api-key': org.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    const violations = [res.headers.get('sl-violations') ?? ''].filter(Boolean);
    // Prism's own error answers are problem documents naming its error type (e.g. ...prism/errors#VIOLATIONS).
    if (String(parsed?.type ?? '').includes('stoplight.io/prism')) violations.push(text);
    const exchange = { operationId, status: res.status, body: parsed, violations };
    exchanges.push(exchange);
    return exchange;
  }
  /** The created or read record, which later requests need: anything else stops the walk here, saying why. */
  const data = async (operationId: string, method: string, path: string, body?: unknown) => {
    const exchange = await call(operationId, method, path, body);
    if (exchange.status >= 300) throw new Error(`${operationId}: ${JSON.stringify(exchange)}`);
    return exchange.body.data;
  };

  it('every public operation, one happy-path request each: Prism finds no violation', async () => {
    const admin = (path: string, body: unknown) => t.admin.post(`/admin/v1/organizations/${org.id}${path}`, body);
    const call_ = exampleOf('createCall');
    await admin('/phone-numbers', { number: call_.from, label: 'Main' });
    await admin('/trial', { days: 30, mins: 100 });
    const prompt = (await admin('/prompts', { content: 'You answer for Acme.' })).body.data;
    const inbound = (await admin('/inbound-assistants', { name: 'Reception', systemPromptId: prompt.id })).body.data;
    const account = (
      await admin('/messaging-accounts', {
        displayPhoneNumber: '+1 555-010-0142',
        verifiedName: 'Acme',
        phoneNumberId: `pn-prism-${org.id}`,
      })
    ).body.data;
    const written = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId: account.id,
      // Not the example contact's number: a user who writes becomes a contact.
      from: '+14155550176',
      text: 'Can I move my appointment?',
    });
    const conversationId = written.body.data.conversationId as string;

    await call('getOrganization', 'GET', '/api/v1/organization');
    await call('getLimits', 'GET', '/api/v1/limits');
    await call('getUsage', 'GET', '/api/v1/usage');
    await call('listUsageHistory', 'GET', '/api/v1/usage/history');
    await call('listPhoneNumbers', 'GET', '/api/v1/phone-numbers');
    await call('listContactGroups', 'GET', '/api/v1/contact-groups');

    const contact = await data('createContact', 'POST', '/api/v1/contacts', exampleOf('createContact'));
    await call('createContactsBatch', 'POST', '/api/v1/contacts/batch', exampleOf('createContactsBatch'));
    await call('listContacts', 'GET', '/api/v1/contacts');
    await call('searchContacts', 'GET', '/api/v1/contacts/search?q=Ada');
    await call('getContact', 'GET', `/api/v1/contacts/${contact.id}`);
    await call('updateContact', 'PATCH', `/api/v1/contacts/${contact.id}`, exampleOf('updateContact'));

    const kase = await data('createCase', 'POST', '/api/v1/cases', exampleOf('createCase'));
    await call('listCases', 'GET', '/api/v1/cases');
    await call('getCase', 'GET', `/api/v1/cases/${kase.id}`);
    await call('updateCase', 'PATCH', `/api/v1/cases/${kase.id}`, exampleOf('updateCase'));
    await call('listCaseVersions', 'GET', `/api/v1/cases/${kase.id}/versions`);
    const scenario = await data('createScenario', 'POST', '/api/v1/scenarios', {
      ...exampleOf('createScenario'),
      caseId: kase.id,
    });
    await call('listScenarios', 'GET', `/api/v1/scenarios?caseId=${kase.id}`);
    await call('getScenario', 'GET', `/api/v1/scenarios/${scenario.id}`);
    await call('updateScenario', 'PATCH', `/api/v1/scenarios/${scenario.id}`, exampleOf('updateScenario'));
    const run = await data('runScenario', 'POST', `/api/v1/scenarios/${scenario.id}/runs`, exampleOf('runScenario'));
    await call('runCaseScenarios', 'POST', '/api/v1/scenarios/runs', { caseId: kase.id });
    await eventually(async () => (await org.api.get(`/api/v1/scenario-runs/${run.id}`)).body.data.status !== 'queued');
    await call('getScenarioRun', 'GET', `/api/v1/scenario-runs/${run.id}`);
    await call('deleteScenario', 'DELETE', `/api/v1/scenarios/${scenario.id}`);

    const outbound = await data('createOutboundAssistant', 'POST', '/api/v1/assistants/outbound', {
      ...exampleOf('createOutboundAssistant'),
    });
    await call('listOutboundAssistants', 'GET', '/api/v1/assistants/outbound');
    await call('getOutboundAssistant', 'GET', `/api/v1/assistants/outbound/${outbound.id}`);
    await call(
      'updateOutboundAssistant',
      'PATCH',
      `/api/v1/assistants/outbound/${outbound.id}`,
      exampleOf('updateOutboundAssistant'),
    );
    await call('listInboundAssistants', 'GET', '/api/v1/assistants/inbound');
    await call('getInboundAssistant', 'GET', `/api/v1/assistants/inbound/${inbound.id}`);
    await call(
      'updateInboundAssistant',
      'PATCH',
      `/api/v1/assistants/inbound/${inbound.id}`,
      exampleOf('updateInboundAssistant'),
    );

    const placed = await data('createCall', 'POST', '/api/v1/calls', call_);
    await call('listCalls', 'GET', '/api/v1/calls');
    await call('getCall', 'GET', `/api/v1/calls/${placed.id}`);
    // Only a live call can be ended: wait until the platform took it (calls last 3 s here).
    await waitForCall(org, placed.id, (c) => Boolean(c.apiCallId));
    await call('endCall', 'POST', `/api/v1/calls/${placed.id}/end`);
    const later = new Date(Date.now() + 24 * 3600_000).toISOString();
    const scheduled = (await org.api.post('/api/v1/calls', { ...call_, scheduledAt: later })).body.data;
    await call('cancelCall', 'DELETE', `/api/v1/calls/${scheduled.id}`);

    // A label needs a call that ended: one more call, run by the simulator to its end.
    const heard = (await org.api.post('/api/v1/calls', call_)).body.data;
    await waitForCall(org, heard.id, (c) => c.status === 'ended');
    await call('labelCall', 'PUT', `/api/v1/calls/${heard.id}/label`, exampleOf('labelCall'));
    await call('getCallLabel', 'GET', `/api/v1/calls/${heard.id}/label`);
    await call('getAnswerDetectionReport', 'GET', '/api/v1/reports/answer-detection');
    const numbers = (await org.api.get('/api/v1/phone-numbers')).body.data as Json[];
    await call('getPhoneNumberHealth', 'GET', `/api/v1/phone-numbers/${numbers[0].id}/health`);

    const campaign = await data('createCampaign', 'POST', '/api/v1/campaigns', exampleOf('createCampaign'));
    await call('listCampaigns', 'GET', '/api/v1/campaigns');
    await call('getCampaign', 'GET', `/api/v1/campaigns/${campaign.id}`);
    await call('listCampaignEntries', 'GET', `/api/v1/campaigns/${campaign.id}/entries`);
    await call('getCampaignVariants', 'GET', `/api/v1/campaigns/${campaign.id}/variants`);
    await call('startCampaign', 'POST', `/api/v1/campaigns/${campaign.id}/start`);
    await call('pauseCampaign', 'POST', `/api/v1/campaigns/${campaign.id}/pause`);
    await call('resumeCampaign', 'POST', `/api/v1/campaigns/${campaign.id}/resume`);
    await call('cancelCampaign', 'POST', `/api/v1/campaigns/${campaign.id}/cancel`);

    const dnc = exampleOf('addDoNotCall').number as string;
    await call('addDoNotCall', 'POST', '/api/v1/do-not-call', exampleOf('addDoNotCall'));
    await call('listDoNotCall', 'GET', '/api/v1/do-not-call');
    await call('getDoNotCall', 'GET', `/api/v1/do-not-call/${encodeURIComponent(dnc)}`);
    await call('removeDoNotCall', 'DELETE', `/api/v1/do-not-call/${encodeURIComponent(dnc)}`);

    await call('listMessagingAccounts', 'GET', '/api/v1/messaging/accounts');
    await call('listConversations', 'GET', '/api/v1/messaging/conversations');
    const sent = await data('sendMessage', 'POST', '/api/v1/messaging/messages', {
      ...exampleOf('sendMessage'),
      conversationId,
    });
    await call('getConversation', 'GET', `/api/v1/messaging/conversations/${conversationId}`);
    // The simulator keeps no files: a message without media is the documented 404.
    await call('getMessageMedia', 'GET', `/api/v1/messaging/messages/${sent.messageId}/media`);
    await call('handOffConversation', 'POST', `/api/v1/messaging/conversations/${conversationId}/hand-off`);
    await call('closeConversation', 'POST', `/api/v1/messaging/conversations/${conversationId}/close`);
    await call('reopenConversation', 'POST', `/api/v1/messaging/conversations/${conversationId}/reopen`);

    // A receiver that refuses every attempt, so that a delivery ends failed and can be retried.
    receiver.answerAlways('/hooks', 500);
    const hook = await data('createWebhook', 'POST', '/api/v1/webhooks', {
      ...exampleOf('createWebhook'),
      url: `${receiver.url}/hooks`,
      events: ['contact.created'],
    });
    await call('listWebhooks', 'GET', '/api/v1/webhooks');
    await call('getWebhook', 'GET', `/api/v1/webhooks/${hook.id}`);
    await call('rotateWebhookSecret', 'POST', `/api/v1/webhooks/${hook.id}/rotate-secret`);
    await call('testWebhook', 'POST', `/api/v1/webhooks/${hook.id}/test`);
    await org.api.post('/api/v1/contacts', { ...exampleOf('createContact'), phone: '+14155550188' });
    let failed: Json | undefined;
    for (let i = 0; i < 100 && !failed; i += 1) {
      const rows = (await org.api.get(`/api/v1/webhooks/${hook.id}/deliveries`)).body.data as Json[];
      failed = rows.find((r) => r.status === 'failed' && r.event === 'contact.created');
      if (!failed) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await call('listWebhookDeliveries', 'GET', `/api/v1/webhooks/${hook.id}/deliveries`);
    await call('getWebhookDelivery', 'GET', `/api/v1/webhooks/${hook.id}/deliveries/${failed!.id}`);
    await call('retryWebhookDelivery', 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${failed!.id}/retry`);
    await call('recoverWebhookDeliveries', 'POST', `/api/v1/webhooks/${hook.id}/recover`);
    await call('updateWebhook', 'PATCH', `/api/v1/webhooks/${hook.id}`, exampleOf('updateWebhook'));
    await call('deleteWebhook', 'DELETE', `/api/v1/webhooks/${hook.id}`);

    await call('deleteContact', 'DELETE', `/api/v1/contacts/${contact.id}`);
    const spare = await data('createCase', 'POST', '/api/v1/cases', exampleOf('createCase'));
    await call('deleteCase', 'DELETE', `/api/v1/cases/${spare.id}`);
    await call('deleteOutboundAssistant', 'DELETE', `/api/v1/assistants/outbound/${outbound.id}`);

    const covered = new Set(exchanges.map((e) => e.operationId));
    expect(operations.filter((id) => !covered.has(id))).toEqual([]);
    expect(exchanges.filter((e) => e.violations.length)).toEqual([]);
    // Happy paths: every answer a success, but the media of a message that has none.
    expect(exchanges.filter((e) => e.status >= 300 && e.operationId !== 'getMessageMedia')).toEqual([]);
    process.stdout.write(`Prism: ${covered.size} operations, ${exchanges.length} requests, 0 violations\n`);
  });
});
