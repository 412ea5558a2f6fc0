import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../modules/api-keys/api-keys.service';
import { Organization } from '../modules/organizations/organization.entity';
import { OrganizationsService } from '../modules/organizations/organizations.service';
import { PhoneNumbersService } from '../modules/phone-numbers/phone-numbers.service';
import { UsageAdminService } from '../modules/usage/usage-admin.service';
import { MessagingAccountsService } from '../modules/messaging/messaging-accounts.service';
import { ChatAgentsService } from '../modules/messaging/chat-agent/chat-agents.service';
import { MessagingAccount } from '../modules/messaging/messaging-account.entity';
import { storeDemoKey, storedDemoKey } from './demo-state';

const DEMO_ORG = 'Demo organization';
/** The demo organization's number: every OpenAPI example's caller ID, so a pasted example works in the demo. */
export const DEMO_NUMBER = '+14155550100';
/** The number the demo's ready-to-paste `curl` calls; never an OpenAPI example (none lists it on do-not-call). */
export const DEMO_CALL_TO = '+14155550123';

/**
 * The demo organization (with a trial's minutes), created on first run and reused afterwards. Its full-access
 * test key is minted once and kept under `.data/`; a restart reuses it while it still authenticates.
 */
export async function seedDemo(
  app: INestApplication,
): Promise<{ apiKey: string; phoneNumber: string; messagingAccountId: string }> {
  const organizations = app.get(OrganizationsService);
  const numbers = app.get(PhoneNumbersService);
  const existing = await app.get(DataSource).getRepository(Organization).findOneBy({ name: DEMO_ORG });
  const org =
    existing ??
    (await organizations.create({
      name: DEMO_ORG,
      description: 'Seeded by npm run demo',
      contactEmail: 'demo@example.com',
    }));
  if (!(await numbers.findOwned(org.id, DEMO_NUMBER))) {
    await numbers.create(org.id, { number: DEMO_NUMBER, label: 'Demo line', providerId: 'demo-number' });
  }
  if (!existing) {
    // A 30-day trial with 100 minutes, so outbound calls work straight away against the simulator.
    await app.get(UsageAdminService).startTrial(org.id, { days: 30, mins: 100 });
  }
  const account = await demoMessagingAccount(app, org.id);
  return {
    apiKey: await demoKey(app.get(ApiKeysService), org.id),
    phoneNumber: DEMO_NUMBER,
    messagingAccountId: account.id,
  };
}

/**
 * The demo organization's test messaging account (on the messaging simulator), with its chat agent on: ensured on
 * every start, so a chat can be tried at once (docs/quickstart.md) even after the agent was turned off.
 */
async function demoMessagingAccount(app: INestApplication, organizationId: string): Promise<MessagingAccount> {
  const accounts = app.get(MessagingAccountsService);
  const [existing] = await accounts.list({ organizationId, livemode: false });
  const account =
    existing ??
    (await accounts.create(organizationId, {
      displayPhoneNumber: DEMO_NUMBER,
      verifiedName: DEMO_ORG,
      livemode: false,
    }));
  const agents = app.get(ChatAgentsService);
  const agent = await agents.get(account);
  if (!agent.enabled) await agents.put(account, { ...agent, enabled: true });
  return account;
}

async function demoKey(keys: ApiKeysService, organizationId: string): Promise<string> {
  const stored = storedDemoKey();
  if (stored) {
    const auth = await keys.authenticate(stored).catch(() => null);
    if (auth?.organizationId === organizationId) return stored;
  }
  const { key } = await keys.create(organizationId, { scopes: ['*'], name: 'demo', environment: 'live' });
  storeDemoKey(key);
  return key;
}
