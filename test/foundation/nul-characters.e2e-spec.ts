import { PHONE_NUMBER_ID, WABA_ID, useWhatsAppWorld } from '../messaging/whatsapp-world';
import { messageChange, webhookOf } from '../messaging/whatsapp-webhooks';

/**
 * NUL (U+0000) cannot be stored by PostgreSQL: in a client's request (any JSON string or key, the path, the query)
 * it is a 400 VALIDATION_ERROR naming where it was, on every route; in a provider's signed callback it becomes
 * U+FFFD and the message is kept, so the provider gets its 200 and nothing is lost.
 */
describe('NUL characters in requests', () => {
  const w = useWhatsAppWorld();
  const NUL = '\u0000';

  it.each([
    ['POST /api/v1/contacts', '/api/v1/contacts', { title: `Ann${NUL}`, phone: '+14155550177' }, 'title'],
    ['POST /api/v1/cases', '/api/v1/cases', { title: 'Case', prompt: `Hello ${NUL}` }, 'prompt'],
    ['POST /api/v1/do-not-call', '/api/v1/do-not-call', { number: '+14155550178', reason: `x${NUL}` }, 'reason'],
    [
      'POST /api/v1/webhooks',
      '/api/v1/webhooks',
      { url: `https://hooks.example.com/a${NUL}`, events: ['call.ended'] },
      'url',
    ],
    [
      'POST /api/v1/calls (a key)',
      '/api/v1/calls',
      { to: '+14155550123', variableValues: { [`na${NUL}me`]: 'Ann' } },
      'variableValues.na\\u0000me',
    ],
  ])('%s: 400 naming the field', async (_name, path, body, field) => {
    const res = await w.org.api.post(path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field }] });
    expect(res.body.error.message).toContain('NUL');
  });

  it('admin routes: 400 naming the field', async () => {
    const res = await w.t.admin.post('/admin/v1/organizations', { name: `Acme${NUL}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'name' }] });
  });

  it('the query and the path: 400', async () => {
    const search = await w.org.api.get('/api/v1/contacts', { query: { search: `a${NUL}b` } });
    expect(search.status).toBe(400);
    expect(search.body.error.code).toBe('VALIDATION_ERROR');
    const byId = await w.org.api.get('/api/v1/do-not-call/%2B1415555%000178');
    expect(byId.status).toBe(400);
    expect(byId.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('a signed WhatsApp batch with one NUL message: 200, and every message is kept', async () => {
    const user = { phone: '14155550179', name: `Eve${NUL}` };
    const batch = webhookOf(
      WABA_ID,
      messageChange(PHONE_NUMBER_ID, user, { id: 'wamid.nul.1', type: 'text', text: { body: `before${NUL}after` } }),
    );
    const clean = messageChange(PHONE_NUMBER_ID, user, { id: 'wamid.nul.2', type: 'text', text: { body: 'fine' } });
    batch.entry[0].changes.push(clean);
    expect(await w.graph.sendWebhook(batch)).toBe(200);
    const { rows } = await w.t.db.query(
      `SELECT provider_message_id, text FROM messages WHERE provider_message_id LIKE 'wamid.nul.%' ORDER BY 1`,
    );
    expect(rows).toEqual([
      { provider_message_id: 'wamid.nul.1', text: 'before\uFFFDafter' },
      { provider_message_id: 'wamid.nul.2', text: 'fine' },
    ]);
  });
});
