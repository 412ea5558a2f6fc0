import { createAccount, userWrites } from '../../messaging/messaging-fixtures';
import { createPrompt } from '../../support/blocker-fixtures';
import { TestOrg } from '../../support/factory';
import { HttpResponse } from '../../support/http';
import { TestApp } from '../../support/test-app';

/**
 * One maker per resource collection with `{id}` routes, shared by the red-team walks (security matrix, other
 * world): each makes a resource through the public API (or the admin API where the dashboard owns it). A walk
 * fails on a templated route whose collection has no maker, so a new resource type cannot slip through unchecked.
 */
/** Makes one resource of the collection with the organization's key (`org.api`) and answers its path id. */
export type Maker = (t: TestApp, org: MakerOrg) => Promise<string>;

/** The organization a maker works for; `livemode` is the world of `api`'s key (default live). */
export type MakerOrg = TestOrg & { from: string; livemode?: boolean };
const created = (what: string) => (res: HttpResponse) => {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body.data.id as string;
};
let listed = 0;

/** A scenario of the key's world, on a case of its own. */
async function scenarioOf(o: MakerOrg): Promise<string> {
  const caseId = created('case')(await o.api.post('/api/v1/cases', { title: 'Victim', prompt: 'Secret prompt' }));
  return created('scenario')(
    await o.api.post('/api/v1/scenarios', { name: 'Victim', caseId, turns: ['hi'], expect: { handOff: false } }),
  );
}

export const MAKERS: Record<string, Maker> = {
  '/api/v1/contacts': async (_t, o) =>
    created('contact')(await o.api.post('/api/v1/contacts', { title: 'Victim', phone: '+14155550177' })),
  '/api/v1/cases': async (_t, o) =>
    created('case')(await o.api.post('/api/v1/cases', { title: 'Victim', prompt: 'Secret prompt' })),
  '/api/v1/calls': async (_t, o) =>
    created('call')(
      await o.api.post('/api/v1/calls', {
        to: '+14155550123',
        from: o.from,
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    ),
  '/api/v1/assistants/outbound': async (_t, o) =>
    created('outbound assistant')(
      await o.api.post('/api/v1/assistants/outbound', {
        name: 'Victim',
        voice: { provider: '11labs', voiceId: 'rachel' },
        model: { provider: 'openai', model: 'gpt-4o-mini' },
      }),
    ),
  '/api/v1/assistants/inbound': async (t, o) =>
    created('inbound assistant')(
      await t.admin.post(`/admin/v1/organizations/${o.id}/inbound-assistants`, {
        name: 'Victim',
        systemPromptId: await createPrompt(t, o.id, 'Secret'),
      }),
    ),
  '/api/v1/messaging/conversations': async (t, o) =>
    userWrites(t, (await createAccount(t, o.id, { livemode: o.livemode ?? true })).id, '+14155550178'),
  // A media message of the owner's (its media route is the one under this collection).
  '/api/v1/messaging/messages': async (t, o) => {
    const account = await createAccount(t, o.id, { livemode: o.livemode ?? true });
    const conversationId = await userWrites(t, account.id, '+14155550180');
    const res = await o.api.post('/api/v1/messaging/messages', { type: 'image', conversationId, mediaId: 'victim' });
    if (res.status !== 201) throw new Error(`message: ${res.status} ${res.text}`);
    return res.body.data.messageId as string;
  },
  '/api/v1/campaigns': async (_t, o) =>
    created('campaign')(
      await o.api.post('/api/v1/campaigns', {
        name: 'Victim',
        from: o.from,
        audience: { rows: [{ to: '+14155550179' }] },
      }),
    ),
  '/api/v1/scenarios': async (_t, o) => scenarioOf(o),
  // A run of a scenario of the key's world (played on that world's chat platform; it may still be queued).
  '/api/v1/scenario-runs': async (_t, o) => {
    const res = await o.api.post(`/api/v1/scenarios/${await scenarioOf(o)}/runs`, {});
    if (res.status !== 202) throw new Error(`scenario run: ${res.status} ${res.text}`);
    return res.body.data.id as string;
  },
  // A number is the organization's (both worlds call from it); the admin API assigns it.
  '/api/v1/phone-numbers': async (t, o) =>
    created('phone number')(
      await t.admin.post(`/admin/v1/organizations/${o.id}/phone-numbers`, {
        number: `+1415666${String(process.pid % 100).padStart(2, '0')}${String(listed++ % 100).padStart(2, '0')}`,
      }),
    ),
  '/api/v1/webhooks': async (_t, o) =>
    created('webhook')(
      await o.api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/victim', events: ['call.ended'] }),
    ),
  // The ledger's path id is the number itself (URL-encoded E.164): a new number each time, so each victim is its own.
  '/api/v1/do-not-call': async (_t, o) => {
    const number = `+1415555${String(1000 + listed++).padStart(4, '0')}`;
    const res = await o.api.post('/api/v1/do-not-call', { number, reason: 'Victim' });
    if (res.status !== 201) throw new Error(`do-not-call: ${res.status} ${res.text}`);
    return encodeURIComponent(res.body.data.number as string);
  },
};
export const collectionOf = (path: string) => path.slice(0, path.indexOf('/{'));
