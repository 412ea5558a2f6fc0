import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SealedSigningSecrets1795820000000 } from '../../src/infra/database/migrations/1795820000000-SealedSigningSecrets';
import { DEV_SIGNING_KEY, SigningSecrets } from '../../src/infra/secrets/signing-secrets';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The signing-secret sealing migration against real PostgreSQL: secrets stored as they were (webhook endpoints,
 * function tools) are sealed in place with the environment's key, sealed ones are left alone, a tool without a
 * secret stays without, and `down` gives the plain secrets back.
 */
describe('SealedSigningSecrets migration (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  // The test environment has no SECRETS_KEY: the development key, as the app itself uses there.
  const secrets = new SigningSecrets(DEV_SIGNING_KEY);

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
  });
  afterAll(() => close());

  const org = randomUUID();
  const endpoint = async (secret: string): Promise<string> => {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret)
       VALUES ($1, $2, 'https://example.com/hook', '{call.ended}', $3)`,
      [id, org, secret],
    );
    return id;
  };
  const tool = async (secret: string | null): Promise<string> => {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO tools (id, organization_id, type, name, url, secret)
       VALUES ($1, $2, $3, $4, 'https://example.com/tool', $5)`,
      [id, org, secret ? 'function' : 'transferCall', `tool-${id}`, secret],
    );
    return id;
  };
  const secretOf = async (table: string, id: string): Promise<string | null> =>
    (await dataSource.query(`SELECT secret FROM ${table} WHERE id = $1`, [id]))[0].secret;
  const run = async (direction: 'up' | 'down') => {
    const runner = dataSource.createQueryRunner();
    try {
      await new SealedSigningSecrets1795820000000()[direction](runner);
    } finally {
      await runner.release();
    }
  };

  it('seals plain secrets, leaves sealed ones and missing ones, and opens them all again on down', async () => {
    const plainEndpoint = await endpoint('whsec_old_plain');
    const alreadySealed = secrets.seal('whsec_already');
    const sealedEndpoint = await endpoint(alreadySealed);
    const plainTool = await tool('whsec_tool_plain');
    const noSecret = await tool(null);

    await run('up');

    const endpointSecret = await secretOf('webhook_endpoints', plainEndpoint);
    expect(endpointSecret).toMatch(/^v1\./);
    expect(endpointSecret).not.toContain('whsec_old_plain');
    expect(secrets.open(endpointSecret!)).toBe('whsec_old_plain');
    expect(await secretOf('webhook_endpoints', sealedEndpoint)).toBe(alreadySealed);
    const toolSecret = await secretOf('tools', plainTool);
    expect(toolSecret).not.toContain('whsec_tool_plain');
    expect(secrets.open(toolSecret!)).toBe('whsec_tool_plain');
    expect(await secretOf('tools', noSecret)).toBeNull();

    await run('down');

    expect(await secretOf('webhook_endpoints', plainEndpoint)).toBe('whsec_old_plain');
    expect(await secretOf('webhook_endpoints', sealedEndpoint)).toBe('whsec_already');
    expect(await secretOf('tools', plainTool)).toBe('whsec_tool_plain');
  });
});
