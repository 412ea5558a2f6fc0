import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, insertCase, insertContact } from '../calls/call-fixtures';
import { allEntries, rows, waitForCampaign } from './campaign-fixtures';

const PREMIUM = '+19005550123';

/** `count` rows, each with `date` except at the indexes in `without`. */
function datedRows(
  prefix: string,
  count: number,
  without: number[],
): Array<{ to: string; variableValues?: Record<string, string> }> {
  return rows(prefix, count).map((r, i) => ({
    ...r,
    variableValues: { email: 'ada@example.com', ...(without.includes(i) ? {} : { date: 'Friday' }) },
  }));
}

describe('dialer: a campaign audience checked before it is stored', () => {
  let t: TestApp;
  let org: CallsOrg;
  /** The case of each organization: `date` and `email` required with nothing else to give them, `office` defaulted. */
  const caseOf = new Map<string, string>();
  const strictCase = (o: CallsOrg) =>
    insertCase(t, o, {
      prompt: 'Remind {{name}} of {{date}}',
      variables: [
        { name: 'date', source: 'custom', required: true },
        { name: 'email', source: 'contact.email', required: true },
        { name: 'office', source: 'custom', required: true, defaultValue: 'Main street' },
      ],
    });
  const ownOrg = async () => {
    const o = await callingOrg(t);
    caseOf.set(o.id, await strictCase(o));
    return o;
  };
  const campaignsOf = async (o: CallsOrg) =>
    (await t.db.query('SELECT count(*)::int AS n FROM campaigns WHERE organization_id = $1', [o.id])).rows[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    org = await ownOrg();
  });
  afterAll(() => t?.close());

  const create = (o: CallsOrg, body: Record<string, unknown>) =>
    o.api.post('/api/v1/campaigns', { name: 'Reminders', from: o.from, caseId: caseOf.get(o.id), ...body });

  it('refuses rows missing a variable the case requires with 422 naming each row, and stores nothing', async () => {
    const own = await ownOrg();
    const res = await create(own, { audience: { rows: datedRows('+1415571', 20, [3, 13]) } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([
      { field: 'audience.rows[3].variableValues.date', message: 'required by the case' },
      { field: 'audience.rows[13].variableValues.date', message: 'required by the case' },
    ]);
    expect(res.body.error.message).toMatch(/^audience\.rows\[3\]\.variableValues\.date: required by the case/);
    expect(await campaignsOf(own)).toBe(0);
  });

  it("takes a value from the row, the contact's field or the variable's default", async () => {
    const contactId = await insertContact(org, { title: 'Ada', phone: '+14155720001', email: 'ada@example.com' });
    const res = await create(org, {
      audience: { rows: [{ to: '+14155720001', contactId, variableValues: { date: 'Friday' } }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ counts: { total: 1 }, duplicatesRemoved: 0 });
    expect(res.body.data.refusedRows).toBeUndefined();
  });

  it('names at most 100 refused rows and says how many there were', async () => {
    const res = await create(org, { audience: { rows: rows('+1415573', 150) } });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toHaveLength(100);
    expect(res.body.error.message).toContain('300 refusals in all, 200 more not listed');
  });

  it('with skipInvalidRows creates the valid rows and lists the refused ones, numbers included', async () => {
    const audience = datedRows('+1415574', 20, [13]);
    audience[5] = { ...audience[5], to: PREMIUM };
    const res = await create(org, { audience: { rows: audience }, skipInvalidRows: true });
    expect(res.status).toBe(201);
    expect(res.body.data.counts).toMatchObject({ total: 18, pending: 18 });
    expect(res.body.data.refusedRows).toEqual([
      { row: 5, field: 'to', message: expect.stringContaining(PREMIUM) },
      { row: 13, field: 'variableValues.date', message: 'required by the case' },
    ]);
    const stored = await allEntries(org, res.body.data.id);
    expect(stored.map((e) => e.to)).not.toContain(PREMIUM);
    expect(stored.map((e) => e.to)).not.toContain(audience[13].to);
  });

  it('with skipInvalidRows still refuses a campaign left with nothing to call', async () => {
    const own = await ownOrg();
    const res = await create(own, { audience: { rows: rows('+1415575', 2) }, skipInvalidRows: true });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toHaveLength(4);
    expect(await campaignsOf(own)).toBe(0);
  });

  it('calls a number given twice once: the first row wins and the answer counts the others', async () => {
    const own = await ownOrg();
    const [a, b] = rows('+1415576', 2, () => 0);
    const res = await own.api.post('/api/v1/campaigns', {
      name: 'Twice',
      from: own.from,
      audience: { rows: [a, b, { ...a, variableValues: { second: 'yes' } }, a] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ duplicatesRemoved: 2, counts: { total: 2 } });
    const started = await own.api.post(`/api/v1/campaigns/${res.body.data.id}/start`);
    expect(started.status).toBe(200);
    await waitForCampaign(own, res.body.data.id, (c) => c.status === 'completed', 30_000);
    const { rows: calls } = await t.db.query(
      'SELECT variable_values FROM calls WHERE organization_id = $1 AND call_to = $2',
      [own.id, a.to],
    );
    expect(calls).toEqual([{ variable_values: null }]);
  });

  it('an entry that became impossible to call after creation is skipped with a sentence naming the field', async () => {
    const own = await ownOrg();
    const loose = await insertCase(t, own, { prompt: 'Remind of {{date}}' });
    const draft = await create(own, { caseId: loose, audience: { rows: rows('+1415577', 1) } });
    expect(draft.status).toBe(201);
    const id = draft.body.data.id;
    const patched = await own.api.patch(`/api/v1/cases/${loose}`, {
      variables: [{ name: 'date', source: 'custom', required: true }],
    });
    expect(patched.status).toBe(200);
    expect((await own.api.post(`/api/v1/campaigns/${id}/start`)).status).toBe(200);
    await waitForCampaign(own, id, (c) => c.status === 'completed', 30_000);
    const [entry] = await allEntries(own, id);
    expect(entry).toMatchObject({
      status: 'skipped',
      skipReason: 'VALIDATION_ERROR',
      skipDetail: expect.stringContaining('variableValues.date'),
    });
  });
});
