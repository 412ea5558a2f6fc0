import { CallsOrg, callingOrg, eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { allEntries, startCampaign, waitForCampaign } from './campaign-fixtures';

/** A premium-rate number (NANP 900) and a satellite one (Iridium, +8816), both refused by default. */
const PREMIUM = '+19005550123';
const SATELLITE = '+881612345678';

describe('destination rules against toll fraud (docs/contracts/destinations.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const rulesPath = (org: { id: string }) => `/admin/v1/organizations/${org.id}/destination-rules`;
  async function setRules(org: { id: string }, rules: Record<string, unknown>) {
    const res = await t.admin.put(rulesPath(org), rules);
    if (res.status !== 200) throw new Error(`rules: ${res.status} ${res.text}`);
    return res.body.data;
  }
  const refusal = (res: { status: number; body: any }) => ({ status: res.status, code: res.body.error?.code });

  describe('POST /api/v1/calls', () => {
    let org: CallsOrg;
    beforeAll(async () => {
      org = await callingOrg(t);
    });

    it('refuses premium-rate and satellite numbers by default, in the live and the test world, creating nothing', async () => {
      const test = await org.keyWith(['*'], { environment: 'test' });
      for (const api of [org.api, test.api]) {
        for (const to of [PREMIUM, SATELLITE, '+882123456789']) {
          const res = await api.post('/api/v1/calls', { to, from: org.from });
          expect(refusal(res)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
          expect(res.body.error.details).toEqual([{ field: 'to', message: expect.stringContaining(to) }]);
        }
      }
      expect((await org.api.post('/api/v1/calls', { to: PREMIUM, from: org.from })).body.error.message).toBe(
        `to: ${PREMIUM} is a premium-rate number (+1900, NANP 900: premium-rate services (NANPA)); this ` +
          'organization has not opted in to calling premium-rate numbers',
      );
      const { rows } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE organization_id = $1`, [org.id]);
      expect(rows[0].n).toBe(0);
      // An ordinary number is still called.
      expect((await org.api.post('/api/v1/calls', { to: '+14155550100', from: org.from })).status).toBe(201);
    });

    it("follows the organization's rules: an opted-in class, its own prefixes, its countries", async () => {
      const own = await callingOrg(t);
      await setRules(own, {
        allowedClasses: ['satellite'],
        blockedPrefixes: ['+1268'],
        allowedCountries: ['US', 'AG'],
      });
      expect((await own.api.post('/api/v1/calls', { to: SATELLITE, from: own.from })).status).toBe(201);
      expect(refusal(await own.api.post('/api/v1/calls', { to: PREMIUM, from: own.from }))).toEqual({
        status: 422,
        code: 'DESTINATION_NOT_ALLOWED',
      });
      const prefixed = await own.api.post('/api/v1/calls', { to: '+12684601234', from: own.from });
      expect(prefixed.body.error).toMatchObject({
        code: 'DESTINATION_NOT_ALLOWED',
        message: expect.stringContaining('+1268'),
      });
      const abroad = await own.api.post('/api/v1/calls', { to: '+442071234567', from: own.from });
      expect(abroad.body.error).toMatchObject({
        code: 'DESTINATION_NOT_ALLOWED',
        message: expect.stringContaining('GB'),
      });
      expect((await own.api.post('/api/v1/calls', { to: '+14155550101', from: own.from })).status).toBe(201);
      // Rules are per organization: another organization keeps the defaults.
      expect((await org.api.post('/api/v1/calls', { to: '+442071234567', from: org.from })).status).toBe(201);
      expect(refusal(await org.api.post('/api/v1/calls', { to: SATELLITE, from: org.from })).code).toBe(
        'DESTINATION_NOT_ALLOWED',
      );
    });

    it("refuses the console's test call the same way", async () => {
      const res = await t.admin.post(`/admin/v1/organizations/${org.id}/test-calls`, { to: PREMIUM, from: org.from });
      expect(refusal(res)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
    });

    it('ends a scheduled call whose number the rules refuse by dispatch time: error, destination-not-allowed, call.failed', async () => {
      const later = await callingOrg(t);
      const scheduledAt = new Date(Date.now() + 2000).toISOString();
      const created = await later.api.post('/api/v1/calls', { to: '+14155550140', from: later.from, scheduledAt });
      expect(created.status).toBe(201);
      await setRules(later, { allowedCountries: ['CA'] });
      const call = await waitForCall(later, created.body.data.id, finished, 15_000);
      expect(call).toMatchObject({ status: 'error', endedReason: 'destination-not-allowed', apiCallId: null });
      expect((await eventsOf(t, call.id)).map((e) => e.type)).toEqual(['call.scheduled', 'call.failed']);
    });
  });

  describe('transfers', () => {
    let org: CallsOrg;
    beforeAll(async () => {
      org = await callingOrg(t);
    });
    const tools = () => `/admin/v1/organizations/${org.id}/tools`;

    it('refuses a transfer destination when a tool is created or changed, naming it', async () => {
      const created = await t.admin.post(tools(), {
        type: 'transfer',
        name: 'to_premium',
        destinations: [
          { number: '+14155550190', mode: 'cold' },
          { number: PREMIUM, mode: 'cold' },
        ],
      });
      expect(refusal(created)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
      expect(created.body.error.details[0].field).toBe('destinations.1.number');
      const ok = await t.admin.post(tools(), {
        type: 'transfer',
        name: 'to_desk',
        destinations: [{ number: '+14155550190', mode: 'cold' }],
      });
      expect(ok.status).toBe(201);
      const changed = await t.admin.patch(`/admin/v1/tools/${ok.body.data.id}`, {
        destinations: [{ number: SATELLITE, mode: 'cold' }],
      });
      expect(refusal(changed)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
      expect(changed.body.error.details[0].field).toBe('destinations.0.number');
      expect((await t.admin.get(`/admin/v1/tools/${ok.body.data.id}`)).body.data.destinations).toEqual([
        { number: '+14155550190', mode: 'cold' },
      ]);
    });

    it("drops a destination the rules refuse by the time the call is placed, and refuses it on a case's tools", async () => {
      const tool = await t.admin.post(tools(), {
        type: 'transfer',
        name: 'to_front',
        destinations: [
          { number: '+14155550193', mode: 'cold' },
          { number: '+14155550194', mode: 'cold' },
        ],
      });
      const caseId = (await org.api.post('/api/v1/cases', { title: 'Desk', prompt: 'Help' })).body.data.id;
      expect((await t.admin.post(`/admin/v1/cases/${caseId}/tools`, { toolIds: [tool.body.data.id] })).status).toBe(
        200,
      );
      // A number ending in 6 is transferred to the first destination of its transfer tool (the simulator).
      const scheduledAt = new Date(Date.now() + 2000).toISOString();
      const created = await org.api.post('/api/v1/calls', { to: '+14155550146', from: org.from, caseId, scheduledAt });
      expect(created.status).toBe(201);
      await setRules(org, { blockedPrefixes: ['+14155550193'] });

      const ended = await waitForCall(org, created.body.data.id, finished, 15_000);
      expect(ended).toMatchObject({
        endedReason: 'assistant-forwarded-call',
        transfer: { to: '+14155550194', mode: 'cold', status: 'completed', at: expect.any(String) },
      });
      const again = await t.admin.post(`/admin/v1/cases/${caseId}/tools`, { toolIds: [tool.body.data.id] });
      expect(refusal(again)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
      expect(again.body.error.details[0]).toEqual({
        field: 'toolIds',
        message: expect.stringContaining('+14155550193'),
      });
    });
  });

  describe('campaigns', () => {
    it('refuses a campaign with a refused row or contact, naming it, and creates nothing', async () => {
      const org = await callingOrg(t);
      const res = await org.api.post('/api/v1/campaigns', {
        name: 'Fraud',
        from: org.from,
        audience: { rows: [{ to: '+14155550150' }, { to: SATELLITE }] },
      });
      expect(refusal(res)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
      expect(res.body.error.details[0].field).toBe('audience.rows.1.to');
      // Contacts are checked too, in the test world as in the live one.
      const test = await org.keyWith(['*'], { environment: 'test' });
      const contact = await test.api.post('/api/v1/contacts', { title: 'Premium', phone: PREMIUM });
      expect(contact.status).toBe(201);
      const byContact = await test.api.post('/api/v1/campaigns', {
        name: 'Fraud',
        from: org.from,
        audience: { contactIds: [contact.body.data.id] },
      });
      expect(refusal(byContact)).toEqual({ status: 422, code: 'DESTINATION_NOT_ALLOWED' });
      expect(byContact.body.error.details[0].field).toBe('audience.contactIds.0');
      const { rows } = await t.db.query(`SELECT count(*)::int AS n FROM campaigns WHERE organization_id = $1`, [
        org.id,
      ]);
      expect(rows[0].n).toBe(0);
    });

    it('skips an entry whose number the rules refuse when it is dialled', async () => {
      const org = await callingOrg(t);
      const created = await org.api.post('/api/v1/campaigns', {
        name: 'Later',
        from: org.from,
        audience: { rows: [{ to: '+14155640000' }, { to: '+14155640001' }] },
      });
      expect(created.status).toBe(201);
      await setRules(org, { blockedPrefixes: ['+14155640001'] });
      expect((await org.api.post(`/api/v1/campaigns/${created.body.data.id}/start`)).status).toBe(200);
      const done = await waitForCampaign(org, created.body.data.id, (c) => c.status === 'completed', 20_000);
      expect(done.counts).toMatchObject({ done: 1, skipped: 1 });
      expect((await allEntries(org, done.id)).find((e) => e.to === '+14155640001')).toMatchObject({
        status: 'skipped',
        skipReason: 'DESTINATION_NOT_ALLOWED',
        attempts: [],
      });
      // The fixture itself dials an allowed campaign through: the skip above is the rules' doing.
      const allowed = await startCampaign(org, { audience: { rows: [{ to: '+14155640002' }] } });
      expect((await waitForCampaign(org, allowed, (c) => c.status === 'completed', 20_000)).counts).toMatchObject({
        done: 1,
      });
    });
  });

  describe('admin route', () => {
    let org: CallsOrg;
    beforeAll(async () => {
      org = await callingOrg(t);
    });

    it('answers the defaults until set, with the ranges blocked by default', async () => {
      const res = await t.admin.get(rulesPath(org));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: org.id,
        allowedCountries: null,
        blockedPrefixes: [],
        allowedClasses: [],
      });
      expect(res.body.data.blockedRanges).toContainEqual({
        prefix: '+1900',
        class: 'premium-rate',
        description: 'NANP 900: premium-rate services (NANPA)',
        allowed: false,
      });
      expect(res.body.data.blockedRanges.every((r: any) => r.allowed === false)).toBe(true);
    });

    it('sets the whole rules, reads them back, and resets omitted fields to their defaults', async () => {
      const set = await setRules(org, {
        allowedCountries: ['US', 'CA'],
        blockedPrefixes: ['+1268'],
        allowedClasses: ['satellite'],
      });
      expect(set).toMatchObject({
        allowedCountries: ['US', 'CA'],
        blockedPrefixes: ['+1268'],
        allowedClasses: ['satellite'],
      });
      expect(set.blockedRanges.find((r: any) => r.prefix === '+881')).toMatchObject({ allowed: true });
      expect(set.blockedRanges.find((r: any) => r.prefix === '+1900')).toMatchObject({ allowed: false });
      expect((await t.admin.get(rulesPath(org))).body.data).toEqual(set);
      expect(await setRules(org, {})).toMatchObject({
        allowedCountries: null,
        blockedPrefixes: [],
        allowedClasses: [],
      });
    });

    it('validates every field and holds its bounds: the limit accepted, one more refused', async () => {
      const prefixes = (n: number) => Array.from({ length: n }, (_, i) => `+1${String(i).padStart(3, '0')}`);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ allowedCountries: ['XX'] }, 'allowedCountries'],
        [{ allowedCountries: ['us'] }, 'allowedCountries'],
        [{ allowedCountries: 'US' }, 'allowedCountries'],
        [{ allowedCountries: ['US', 'US'] }, 'allowedCountries'],
        [{ allowedCountries: Array.from({ length: 251 }, () => 'US') }, 'allowedCountries'],
        [{ blockedPrefixes: ['1900'] }, 'blockedPrefixes'],
        [{ blockedPrefixes: ['+0900'] }, 'blockedPrefixes'],
        [{ blockedPrefixes: ['+1234567890123456'] }, 'blockedPrefixes'],
        [{ blockedPrefixes: prefixes(101) }, 'blockedPrefixes'],
        [{ blockedPrefixes: ['+1\u0000'] }, 'blockedPrefixes'],
        [{ allowedClasses: ['premium'] }, 'allowedClasses'],
        [{ allowedClasses: ['satellite', 'satellite'] }, 'allowedClasses'],
      ];
      for (const [body, field] of cases) {
        const res = await t.admin.put(rulesPath(org), body);
        expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
          body,
          status: 400,
          code: 'VALIDATION_ERROR',
        });
        expect(res.body.error.message).toContain(field);
      }
      expect((await t.admin.put(rulesPath(org), { blockedPrefixes: prefixes(100) })).status).toBe(200);
      expect((await t.admin.put(rulesPath(org), { blockedPrefixes: ['+123456789012345'] })).status).toBe(200);
    });

    it('is admin-only (an API key, even with every scope, is refused) and 404 for an unknown organization', async () => {
      const anonymous = new HttpClient(t.baseUrl);
      expect((await anonymous.get(rulesPath(org))).status).toBe(401);
      for (const api of [org.api, new HttpClient(t.baseUrl, { authorization: `Bearer ${org.key}` })]) {
        expect((await api.get(rulesPath(org))).status).toBe(401);
        expect((await api.put(rulesPath(org), { allowedClasses: ['premium-rate'] })).status).toBe(401);
      }
      expect((await t.admin.get(rulesPath(org))).body.data.allowedClasses).toEqual([]);
      const missing = await t.admin.get(
        '/admin/v1/organizations/00000000-0000-7000-8000-000000000000/destination-rules',
      );
      expect(refusal(missing)).toEqual({ status: 404, code: 'NOT_FOUND' });
    });
  });
});
