import { DataSource, EntityTarget } from 'typeorm';
import { InboundAssistant } from '../../src/modules/assistants/inbound-assistant.entity';
import { OutboundAssistant } from '../../src/modules/assistants/outbound-assistant.entity';
import { Call } from '../../src/modules/calls/call.entity';
import { Contact } from '../../src/modules/contacts/contact.entity';
import { Conversation } from '../../src/modules/messaging/conversation.entity';
import { MessagingAccount } from '../../src/modules/messaging/messaging-account.entity';
import { PhoneNumber } from '../../src/modules/phone-numbers/phone-number.entity';
import { callingOrg, CallsOrg } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** The columns a SELECT reads from `table` (its select list, whatever alias TypeORM gave the table). */
function columnsRead(sql: string, table: string): string[] | null {
  const match = new RegExp(`^SELECT ([\\s\\S]*?) FROM "${table}" "(\\w+)"`).exec(sql);
  if (!match) return null;
  const [, list, alias] = match;
  return [...list.matchAll(new RegExp(`"${alias}"\\."(\\w+)"`, 'g'))].map((m) => m[1]);
}

interface ListRoute {
  path: string;
  entity: EntityTarget<unknown>;
  /** Columns read though not returned as such, each for a stated reason (keyset order, a derived field). */
  alsoRead: string[];
  /** Large columns the list must never read. */
  never: string[];
}

/**
 * Lists read only what they return: for every list route below, the SQL the API sends is captured
 * (TypeORM's query logger, on an API-only instance so no worker queries mix in) and the columns each SELECT on
 * the listed table reads must be the response's fields (mapped through the entity) plus the keyset. A list that
 * starts reading a column it does not return (a contact's customFields, a call's transcript or system prompt)
 * fails here.
 */
describe('lists read only the columns they return', () => {
  let t: TestApp;
  let org: CallsOrg;
  let ds: DataSource;
  const sent: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLES: 'api' } });
    org = await callingOrg(t);
    ds = t.app.get(DataSource);
    const logQuery = ds.logger.logQuery.bind(ds.logger);
    ds.logger.logQuery = (query, parameters, runner) => {
      sent.push(query);
      return logQuery(query, parameters, runner);
    };
    // One row in each list, with its large columns filled.
    const prompt = await t.admin.post(`/admin/v1/organizations/${org.id}/prompts`, { content: 'p'.repeat(5000) });
    const created = [
      await t.admin.post(`/admin/v1/organizations/${org.id}/inbound-assistants`, {
        name: 'Inbound',
        systemPromptId: prompt.body.data.id,
      }),
      await org.api.post('/api/v1/contacts', {
        title: 'Listed',
        phone: '+12025550100',
        notes: 'n'.repeat(5000),
        customFields: { a: 'v'.repeat(1000) },
      }),
      await org.api.post('/api/v1/calls', { to: '+12025550101', from: org.from, systemPrompt: 's'.repeat(5000) }),
      await org.api.post('/api/v1/assistants/outbound', {
        name: 'Outbound',
        voice: { provider: '11labs', voiceId: 'rachel' },
        model: { provider: 'openai', model: 'gpt-4o-mini' },
        systemPrompt: 's'.repeat(5000),
      }),
    ];
    for (const res of created) expect(res.status).toBe(201);
    const account = await t.admin.post(`/admin/v1/organizations/${org.id}/messaging-accounts`, {
      displayPhoneNumber: '+1 555-010-0100',
      verifiedName: 'Listed',
    });
    expect(account.status).toBe(201);
    const message = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId: account.body.data.id,
      from: '+12025550199',
      name: 'User',
      text: 'Hello',
    });
    expect(message.status).toBe(201);
  });
  afterAll(() => t?.close());

  const routes: ListRoute[] = [
    // The public status is derived from the status and the schedule.
    { path: '/api/v1/calls', entity: Call, alsoRead: ['scheduled_at'], never: ['transcript', 'system_prompt'] },
    { path: '/api/v1/contacts', entity: Contact, alsoRead: [], never: ['custom_fields', 'notes'] },
    { path: '/api/v1/assistants/outbound', entity: OutboundAssistant, alsoRead: [], never: ['system_prompt'] },
    { path: '/api/v1/assistants/inbound', entity: InboundAssistant, alsoRead: [], never: [] },
    // Ordered by most recent activity (docs/contracts/conventions.md): the keyset column.
    { path: '/api/v1/messaging/conversations', entity: Conversation, alsoRead: ['last_activity_at'], never: [] },
    { path: '/api/v1/messaging/accounts', entity: MessagingAccount, alsoRead: [], never: [] },
    // The voice platform's id is the admin API's, never the public list's.
    { path: '/api/v1/phone-numbers', entity: PhoneNumber, alsoRead: [], never: ['provider_id'] },
  ];

  it.each(routes)('$path', async ({ path, entity, alsoRead, never }) => {
    const metadata = ds.getMetadata(entity);
    sent.length = 0;
    const res = await org.api.get(path);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);

    const column = new Map(metadata.columns.map((c) => [c.propertyName, c.databaseName]));
    const returned = Object.keys(res.body.data[0]).flatMap((key) => column.get(key) ?? []);
    const allowed = new Set([...returned, 'id', 'created_at', ...alsoRead]);
    const reads = sent.flatMap((sql) => columnsRead(sql, metadata.tableName) ?? []);
    // The route did read the table (so the check below has something to check).
    expect(reads).toContain('id');
    expect(reads.filter((c) => !allowed.has(c))).toEqual([]);
    for (const large of never) {
      expect(column.has(metadata.findColumnWithDatabaseName(large)?.propertyName ?? '')).toBe(true);
      expect(reads).not.toContain(large);
    }
  });
});
