import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OutboundAssistant } from '../../src/modules/assistants/outbound-assistant.entity';
import { OutboundAssistantsRepository } from '../../src/modules/assistants/outbound-assistants.repository';
import { OrganizationStepReadsRepository } from '../../src/modules/campaigns/engine/organization-step-reads.repository';
import { DestinationRulesRepository } from '../../src/modules/destinations/destination-rules.repository';
import { OrganizationLimit } from '../../src/modules/limits/organization-limit.entity';
import { OrganizationLimitsRepository } from '../../src/modules/limits/organization-limits.repository';
import { PhoneNumber } from '../../src/modules/phone-numbers/phone-number.entity';
import { PhoneNumbersRepository } from '../../src/modules/phone-numbers/phone-numbers.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * A campaign step's reads of its organization, in one statement, against real PostgreSQL: each part is what the
 * owning module's repository reads on its own (its row, or its defaults without one), so the step dials with the
 * same limits, rules, voice and numbers as before.
 */
describe("a campaign step's reads of its organization (PostgreSQL)", () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let reads: OrganizationStepReadsRepository;
  let limits: OrganizationLimitsRepository;
  let rules: DestinationRulesRepository;
  let assistants: OutboundAssistantsRepository;
  let numbers: PhoneNumbersRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([OrganizationLimit, OutboundAssistant, PhoneNumber]));
    reads = new OrganizationStepReadsRepository();
    limits = new OrganizationLimitsRepository(dataSource);
    rules = new DestinationRulesRepository(dataSource);
    assistants = new OutboundAssistantsRepository(dataSource.getRepository(OutboundAssistant));
    numbers = new PhoneNumbersRepository(dataSource.getRepository(PhoneNumber));
  });
  afterAll(() => close());

  /** What the owning repositories read, one statement each. */
  async function readOneByOne(organizationId: string, wanted: string[]) {
    return {
      limits: await limits.find(organizationId),
      destinationRules: await rules.find(organizationId),
      defaultAssistant: await assistants.findDefault(organizationId),
      numbers: new Map(
        await Promise.all(wanted.map(async (n) => [n, await numbers.findByNumber(organizationId, n)] as const)),
      ),
    };
  }

  it('an organization with none of the rows: the defaults, no default assistant, and none of the numbers its own', async () => {
    const org = randomUUID();
    const wanted = ['+14155550100'];
    const read = await reads.read(dataSource.manager, org, wanted);
    expect(read).toEqual(await readOneByOne(org, wanted));
    expect(read.numbers.get('+14155550100')).toBeNull();
  });

  it("an organization's own limits, rules, default assistant and numbers, each as its module reads it", async () => {
    const [org, other] = [randomUUID(), randomUUID()];
    await limits.save(org, { maxConcurrentCalls: 100, inboundReserve: 5 });
    await limits.save(other, { maxConcurrentCalls: 1, inboundReserve: 0 });
    await rules.save(org, { allowedCountries: ['US', 'CA'], blockedPrefixes: ['+1900'], allowedClasses: ['mobile'] });
    const assistant = (owner: string, name: string, isDefault: boolean) =>
      dataSource.query(
        `INSERT INTO outbound_assistants (id, organization_id, name, is_default, voice, model, transcriber)
         VALUES ($1, $2, $3, $4, '{"provider": "vapi", "voiceId": "Elliot"}', '{"provider": "openai", "model": "gpt-4o"}',
                 '{"provider": "deepgram"}')`,
        [randomUUID(), owner, name, isDefault],
      );
    await assistant(org, 'Default', true);
    await assistant(org, 'Other', false);
    await assistant(other, 'Another organization', true);
    const number = (owner: string, value: string) =>
      dataSource.query(
        `INSERT INTO phone_numbers (id, organization_id, number, platform) VALUES ($1, $2, $3, 'vapi')`,
        [randomUUID(), owner, value],
      );
    await number(org, '+14155550101');
    await number(org, '+14155550102');
    await number(other, '+14155550103');
    // Two of its own, one of another organization's, one nobody's.
    const wanted = ['+14155550101', '+14155550102', '+14155550103', '+14155550104'];
    const read = await reads.read(dataSource.manager, org, wanted);
    expect(read).toEqual(await readOneByOne(org, wanted));
    expect(read.limits).toEqual({ maxConcurrentCalls: 100, inboundReserve: 5 });
    expect(read.destinationRules).toEqual({
      allowedCountries: ['US', 'CA'],
      blockedPrefixes: ['+1900'],
      allowedClasses: ['mobile'],
    });
    expect(read.defaultAssistant).toMatchObject({ organizationId: org, name: 'Default', isDefault: true });
    expect([...read.numbers].map(([n, found]) => [n, found?.organizationId ?? null])).toEqual([
      ['+14155550101', org],
      ['+14155550102', org],
      ['+14155550103', null],
      ['+14155550104', null],
    ]);
  });
});
