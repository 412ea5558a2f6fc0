import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROLES } from './roles';

/**
 * deploy/compose.yaml cannot be run here (no container engine), so this reads it as Compose would and checks
 * what would otherwise only fail on an operator's machine: every service it names exists, every setting given
 * to the app is one the configuration reads (app-config.ts), and the topology is the one docs/operations.md
 * describes (PgBouncer in transaction mode for requests, the primary directly for sessions, the replica for
 * reads, a three-node Redis Cluster).
 */
const ROOT = join(__dirname, '..', '..', '..');

/** Compose's interpolation: `${VAR:-default}` is its default, any other `${VAR...}` a sample value; `$$` is `$`. */
function interpolate(text: string): string {
  return text
    .replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')
    .replace(/\$\{[A-Z_]+(:?\?[^}]*)?\}/g, 'sample-secret')
    .replace(/\$\$/g, '$');
}

const compose = parse(interpolate(readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8')), { merge: true }) as {
  services: Record<string, Service>;
  configs: Record<string, { content: string }>;
};
interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
  deploy?: { replicas?: number };
  configs?: Array<{ source: string }>;
}

/** The variables app-config.ts validates (its EnvironmentVariables class). */
const CONFIG_KEYS = new Set(
  [
    ...readFileSync(join(__dirname, 'app-config.ts'), 'utf8').matchAll(
      /^\s+@IsOptional\(\).*\s([A-Z][A-Z0-9_]*)\?: /gm,
    ),
  ].map((m) => m[1]),
);

const services = compose.services;
const appServices = Object.entries(services).filter(([, s]) => s.image === 'voice-calling-api:local');
const host = (url: string) => new URL(url).hostname;

describe('deploy/compose.yaml', () => {
  it('reads the configuration keys it checks against', () => {
    expect(CONFIG_KEYS.size).toBeGreaterThan(40);
    for (const key of ['DATABASE_URL', 'DATABASE_DIRECT_URL', 'DATABASE_READ_URL', 'READ_AFTER_WRITE_MS', 'ROLES']) {
      expect(CONFIG_KEYS.has(key)).toBe(true);
    }
  });

  it('runs api x2, worker x2 and one scheduler, and only the scheduler migrates', () => {
    const roles = Object.fromEntries(appServices.map(([name, s]) => [name, s.environment?.ROLES]));
    expect(roles).toEqual({ scheduler: 'scheduler', api: 'api', worker: 'worker' });
    expect(services.api.deploy?.replicas).toBe(2);
    expect(services.worker.deploy?.replicas).toBe(2);
    for (const [, s] of appServices) for (const role of s.environment!.ROLES.split(',')) expect(ROLES).toContain(role);
    const migrating = appServices.filter(([, s]) => s.environment?.MIGRATE_ON_START === 'true').map(([n]) => n);
    expect(migrating).toEqual(['scheduler']);
  });

  it('gives the app only settings the configuration reads', () => {
    for (const [name, s] of appServices) {
      const unknown = Object.keys(s.environment ?? {}).filter((k) => !CONFIG_KEYS.has(k));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
  });

  it('sends requests through PgBouncer, sessions to the primary, reads to the replica, queues to the cluster', () => {
    const env = services.api.environment!;
    expect(host(env.DATABASE_URL)).toBe('pgbouncer');
    expect(host(env.DATABASE_DIRECT_URL)).toBe('postgres');
    expect(host(env.DATABASE_READ_URL)).toBe('postgres-replica');
    expect(env.REDIS_URL).toBe('redis://redis-1:6379');
    expect(env.REDIS_CLUSTER).toBe('true');
    const ini = compose.configs['pgbouncer-ini'].content;
    expect(ini).toMatch(/^pool_mode = transaction$/m);
    expect(ini).toMatch(/^voice = host=postgres port=5432/m);
  });

  it('builds a three-node Redis Cluster with a one-shot create', () => {
    for (const node of ['redis-1', 'redis-2', 'redis-3']) {
      expect(services[node].image).toMatch(/^redis:/);
      expect(JSON.stringify(services[node])).toContain('--cluster-enabled yes');
    }
    const init = JSON.stringify(services['redis-cluster-init']);
    expect(init).toContain('--cluster create redis-1:6379 redis-2:6379 redis-3:6379');
  });

  it('refers only to services and configs it defines, and pulls only official images', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const dependency of Object.keys(s.depends_on ?? {}))
        expect({ name, dependency, known: dependency in services }).toMatchObject({ known: true });
      for (const config of s.configs ?? []) expect(Object.keys(compose.configs)).toContain(config.source);
      // Official images have no publisher prefix; ours are built here.
      if (!s.build)
        expect({ name, image: s.image }).toEqual({ name, image: expect.stringMatching(/^[a-z0-9-]+:[\w.-]+$/) });
    }
    for (const [, s] of appServices) {
      for (const key of ['DATABASE_URL', 'DATABASE_DIRECT_URL', 'DATABASE_READ_URL', 'REDIS_URL']) {
        expect(Object.keys(services)).toContain(host(s.environment![key]));
      }
    }
  });
});
