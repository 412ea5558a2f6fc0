import type { Page } from 'playwright-core';
import { CallsOrg, callingOrg, waitForCall } from '../calls/call-fixtures';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { checkPage, ensureConsoleBuilt, expectText, openPage, signIn } from './browser';

/**
 * The console's operations pages in Chromium against the real app and a real local webhook receiver: an
 * endpoint's delivery log, a re-send and a test ping reaching the receiver, and a dialer campaign paused.
 */
describe('console operations in Chromium: webhook deliveries and campaigns', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let org: CallsOrg;
  let endpointId: string;
  let cspViolations: string[];

  beforeAll(async () => {
    ensureConsoleBuilt();
    receiver = await new WebhookReceiver().start();
    // Plain http to 127.0.0.1 for the local receiver; calls long enough to see a campaign's call in progress and
    // to end a live call by hand (it can only end by the button).
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true', SIMULATOR_CALL_MS: '60000' } });
    ({ page, cspViolations, close: closeBrowser } = await openPage());
    org = await callingOrg(t);
    await signIn(page, t.baseUrl, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await t?.close();
    await receiver?.stop();
  });

  const url = (path: string) => `${t.baseUrl}/console/orgs/${org.id}${path}`;
  const hooks = () => receiver.on('/hooks');
  const delivery = () => page.getByTestId('deliveries').locator('li').filter({ hasText: 'contact.created' });

  /** axe on the page as shown at both widths, and screenshots for docs/console.md. */
  const check = (name: string) => checkPage(page, name, { fullPage: true });

  it("shows an endpoint's empty log, then a contact.created delivery with its attempt", async () => {
    const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/hooks`, events: ['contact.created'] });
    expect(hook.status).toBe(201);
    endpointId = hook.body.data.id;
    await page.goto(url('/webhooks'));
    await page.getByRole('button', { name: 'Delivery log' }).click();
    await expectText(page.locator('.delivery-log'), 'No deliveries yet');
    expect((await org.api.post('/api/v1/contacts', { title: 'Maria Lopez', phone: '+14155550111' })).status).toBe(201);
    await receiver.waitFor(() => hooks().length === 1);
    // The log polls: the delivery appears without a reload.
    await expectText(delivery(), 'delivered', 15_000);
    await delivery().getByRole('button', { name: 'contact.created' }).click();
    const attempts = delivery().locator('table');
    await expectText(attempts, '200');
    expect(await attempts.locator('tbody tr').count()).toBe(1);
  });

  it('replays the delivery from the keyboard: the receiver gets the same X-Webhook-Id again, logged as attempt 2', async () => {
    await delivery().getByRole('button', { name: 'Replay' }).focus();
    await page.keyboard.press('Enter');
    await expectText(page.locator('.delivery-log [role="status"]'), 'Re-send queued as attempt 2');
    await receiver.waitFor(() => hooks().length === 2);
    const [first, second] = hooks();
    expect(second.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
    expect(JSON.parse(second.rawBody).event).toBe('contact.created');
    await delivery().locator('tbody tr').nth(1).waitFor({ timeout: 15_000 });
    await expectText(delivery(), '2 attempts');
  });

  it('sends a test ping, shows its outcome, and logs it', async () => {
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await expectText(page.locator('.delivery-log [role="status"]'), 'Test ping delivered: 200');
    expect(hooks().map((r) => JSON.parse(r.rawBody).event)).toContain('webhook.test');
    await expectText(page.getByTestId('deliveries'), 'webhook.test', 15_000);
    // A test ping offers no re-send; the other deliveries still do.
    const ping = page.getByTestId('deliveries').locator('li').filter({ hasText: 'webhook.test' });
    expect(await ping.getByRole('button', { name: 'Replay' }).count()).toBe(0);
    expect(await delivery().getByRole('button', { name: 'Replay' }).count()).toBe(1);
    await check('webhook-deliveries');
  });

  it("shows the API's error message when a re-send is refused", async () => {
    await page.getByRole('button', { name: /^Disable/ }).click();
    await expectText(page.locator('.rows').first(), 'disabled');
    await delivery().getByRole('button', { name: 'Replay' }).click();
    await expectText(page.locator('.delivery-log [role="alert"]'), 'The endpoint is disabled');
    await expectText(page.locator('.delivery-log [role="alert"]'), 'INVALID_STATE');
    const log = await t.admin.get(`/admin/v1/organizations/${org.id}/webhooks/${endpointId}/deliveries`);
    expect(log.body.data.map((d: { event: string }) => d.event)).toEqual(['webhook.test', 'contact.created']);
  });

  it('shows a running campaign with its progress, and pauses and resumes it', async () => {
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'Recall July',
      from: org.from,
      maxConcurrent: 1,
      audience: { rows: [{ to: '+14155550131' }, { to: '+14155550132' }, { to: '+14155550133' }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await org.api.post(`/api/v1/campaigns/${id}/start`)).status).toBe(200);
    await page.goto(url('/automations'));
    const row = page.getByTestId(`campaign-${id}`);
    await expectText(row, 'running');
    await expectText(row.getByTestId('campaign-counts'), '1 in progress', 15_000);
    await row.getByRole('button', { name: 'Pause' }).click();
    await expectText(row, 'paused');
    expect((await org.api.get(`/api/v1/campaigns/${id}`)).body.data.status).toBe('paused');
    expect(await row.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await check('campaigns');
    await row.getByRole('button', { name: 'Resume' }).click();
    await expectText(row, 'running');
    expect((await org.api.get(`/api/v1/campaigns/${id}`)).body.data.status).toBe('running');
    expect(cspViolations).toEqual([]);
  });

  it('ends a live call from its page after confirmation; the call ends as ended through the API', async () => {
    const placed = await org.api.post('/api/v1/calls', { to: '+14155550134', from: org.from });
    expect(placed.status).toBe(201);
    const id = placed.body.data.id;
    await waitForCall(org, id, (c) => c.apiCallStatus === 'in-progress');
    await page.goto(url(`/calls/${id}`));
    await page.getByRole('button', { name: 'End call' }).click();
    await page.getByRole('button', { name: 'Yes, end call' }).click();
    await expectText(page.getByTestId('call-status'), 'ended', 15_000);
    expect(await page.getByRole('button', { name: 'End call' }).count()).toBe(0);
    await expectText(page.getByTestId('answered-by'), 'human');
    expect((await org.api.get(`/api/v1/calls/${id}`)).body.data).toMatchObject({
      status: 'ended',
      endedReason: 'manually-canceled',
    });
    await check('call-ended-by-hand');
  });
});
