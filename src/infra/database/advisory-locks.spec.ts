import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { LOCK_SPACES } from './advisory-locks';

const SRC = resolve(__dirname, '..', '..');
const HOME = 'infra/database/advisory-locks.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Files outside the home module that take an advisory lock themselves. Migrations keep the SQL they shipped. */
function locksOutsideHome(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([path, source]) => path !== HOME && !path.includes('/migrations/') && /pg_(try_)?advisory/.test(source))
    .map(([path]) => path);
}

describe('advisory locks', () => {
  const files = Object.fromEntries(
    tsFiles(SRC)
      .filter((f) => !f.endsWith('.spec.ts'))
      .map((f) => [relative(SRC, f), readFileSync(f, 'utf8')]),
  );

  it('are taken only through src/infra/database/advisory-locks.ts', () => {
    expect(locksOutsideHome(files)).toEqual([]);
  });

  it('are transaction-scoped everywhere (a session lock leaks through a transaction-pooling PgBouncer)', () => {
    const sessionLocks = Object.entries(files)
      .filter(([, source]) => /pg_(try_)?advisory_lock(_shared)?\s*\(/.test(source))
      .map(([path]) => path);
    expect(sessionLocks).toEqual([]);
  });

  it('give every feature its own space', () => {
    const numbers = Object.values(LOCK_SPACES);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('agree with the SQL functions that take the webhook endpoint slot lock', () => {
    const endpointOf = {
      '1795460000000-WebhookClaimSlotFunction': 'p_endpoint_id',
      '1795600000010-WebhookClaimSlotsBatch': 'p_endpoint_id',
      '1795900000000-WebhookClaimSlotsAcrossEndpoints': 'v_endpoint_id',
    };
    for (const [name, endpoint] of Object.entries(endpointOf)) {
      const migration = files[`infra/database/migrations/${name}.ts`];
      expect(migration).toContain(`pg_advisory_xact_lock(${LOCK_SPACES.webhookEndpointSlots}, hashtext(${endpoint}))`);
    }
  });

  it('the check itself sees a lock taken elsewhere', () => {
    expect(
      locksOutsideHome({
        [HOME]: 'pg_advisory_xact_lock',
        'modules/x/x.service.ts': "m.query('SELECT pg_advisory_xact_lock(1, 2)')",
        'infra/database/migrations/1-X.ts': 'pg_advisory_xact_lock',
      }),
    ).toEqual(['modules/x/x.service.ts']);
  });
});
