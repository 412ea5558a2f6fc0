import { DEV_SIGNING_KEY } from '../secrets/signing-secrets';
import { ConfigError, parseConfig } from './app-config';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://x',
  CURSOR_SECRET: 'abcdefghijklmnopqrstuvwxyz012345',
  SECRETS_KEY: '5d41402abc4b2a76b9719d911017c592e3b0c44298fc1c149afbf4c8996fb924',
};
/** 32 characters, exactly 16 of them different: the least a production secret may be. */
const SIXTEEN_DISTINCT = 'ABCDEFGHIJKLMNOP'.repeat(2);

const whatsapp = {
  MESSAGING_PROVIDER: 'whatsapp',
  WHATSAPP_ACCESS_TOKEN: 'EAAG-token',
  WHATSAPP_APP_SECRET: 'app-secret-value',
  WHATSAPP_VERIFY_TOKEN: 'verify-token-value',
};

describe('parseConfig', () => {
  it('applies the docs/contracts/running.md defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      queuePrefix: 'vc',
      voiceProvider: 'simulator',
      messagingProvider: 'simulator',
      simulatorRingMs: 2000,
      simulatorCallMs: 20000,
      webhookRetryDelaysMs: [10000, 60000, 300000],
      webhookTimeoutMs: 10000,
      webhookAllowInsecure: false,
      webhookEndpointConcurrency: 16,
      webhookOrganizationConcurrency: 25,
      migrateOnStart: true,
      logLevel: 'info',
    });
    expect([...c.roles]).toEqual(['api', 'worker', 'scheduler']);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
  });

  it('reads the Vapi adapter and supervision settings (docs/providers.md)', () => {
    const c = parseConfig({
      VOICE_PROVIDER: 'vapi',
      VAPI_API_KEY: 'k',
      VAPI_WEBHOOK_SECRET: 's',
      VAPI_BASE_URL: 'http://x/',
    });
    expect(c.vapi).toEqual({
      apiKey: 'k',
      baseUrl: 'http://x',
      webhookSecret: 's',
      timeoutMs: 10000,
      maxRetries: 3,
      retryBaseMs: 500,
      credentialId: undefined,
      reportGraceMs: 60_000,
      maxConcurrentCalls: 10,
    });
    expect(c.publicBaseUrl).toBeUndefined();
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://calls.example.com/' }).publicBaseUrl).toBe(
      'https://calls.example.com',
    );
    expect(
      parseConfig({ VAPI_CREDENTIAL_ID: 'cred', VAPI_REPORT_GRACE_MS: '0', VAPI_MAX_CONCURRENT_CALLS: '2' }).vapi,
    ).toMatchObject({ credentialId: 'cred', reportGraceMs: 0, maxConcurrentCalls: 2 });
    expect(parseConfig({}).vapi.baseUrl).toBe('https://api.vapi.ai');
    expect(parseConfig({}).callSupervision).toEqual({ maxDurationMs: 3_600_000, graceMs: 120_000 });
  });

  it("reads how soon a dead worker's calls and jobs are taken over (docs/operations.md), each bounded", () => {
    const defaults = parseConfig({});
    expect(defaults.callDispatchStaleMs).toBe(60_000);
    expect(defaults.queueLocks).toEqual({ lockDurationMs: 30_000, stalledIntervalMs: 30_000 });
    const c = parseConfig({
      CALL_DISPATCH_STALE_MS: '1000',
      QUEUE_LOCK_DURATION_MS: '600000',
      QUEUE_STALLED_INTERVAL_MS: '1000',
    });
    expect(c.callDispatchStaleMs).toBe(1000);
    expect(c.queueLocks).toEqual({ lockDurationMs: 600_000, stalledIntervalMs: 1000 });
    for (const [name, value] of [
      ['CALL_DISPATCH_STALE_MS', '999'],
      ['CALL_DISPATCH_STALE_MS', '3600001'],
      ['QUEUE_LOCK_DURATION_MS', '999'],
      ['QUEUE_LOCK_DURATION_MS', '600001'],
      ['QUEUE_STALLED_INTERVAL_MS', '999'],
      ['QUEUE_STALLED_INTERVAL_MS', '600001'],
    ]) {
      expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    }
  });

  it('reads the Retell settings and the failover cooldown (docs/providers.md), each bounded', () => {
    expect(parseConfig({}).retell).toEqual({
      apiKey: undefined,
      baseUrl: 'https://api.retellai.com',
      reportGraceMs: 15_000,
      analysisGraceMs: 30_000,
      maxConcurrentCalls: 20,
    });
    expect(parseConfig({}).platformFailoverCooldownMs).toBe(60_000);
    expect(parseConfig({}).platformWait).toEqual({ retryMs: 5_000, maxAttempts: 10 });
    expect(parseConfig({ PLATFORM_WAIT_RETRY_MS: '100', PLATFORM_WAIT_MAX_ATTEMPTS: '50' }).platformWait).toEqual({
      retryMs: 100,
      maxAttempts: 50,
    });
    const c = parseConfig({
      VOICE_PROVIDER: 'retell',
      RETELL_API_KEY: 'key',
      RETELL_BASE_URL: 'http://retell.test/',
      RETELL_REPORT_GRACE_MS: '0',
      RETELL_ANALYSIS_GRACE_MS: '600000',
      RETELL_MAX_CONCURRENT_CALLS: '10000',
      PLATFORM_FAILOVER_COOLDOWN_MS: '1000',
    });
    expect(c).toMatchObject({ voiceProvider: 'retell', platformFailoverCooldownMs: 1000 });
    expect(c.retell).toEqual({
      apiKey: 'key',
      baseUrl: 'http://retell.test',
      reportGraceMs: 0,
      analysisGraceMs: 600_000,
      maxConcurrentCalls: 10_000,
    });
    expect(() => parseConfig({ VOICE_PROVIDER: 'retell' })).toThrow(
      'RETELL_API_KEY is required when VOICE_PROVIDER=retell',
    );
    expect(() => parseConfig({ ...production, VOICE_PROVIDER: 'retell', RETELL_API_KEY: 'key' })).toThrow(
      'PUBLIC_BASE_URL is required when VOICE_PROVIDER=retell in production',
    );
    for (const [name, value] of [
      ['RETELL_MAX_CONCURRENT_CALLS', '10001'],
      ['RETELL_ANALYSIS_GRACE_MS', '600001'],
      ['RETELL_REPORT_GRACE_MS', '-1'],
      ['PLATFORM_FAILOVER_COOLDOWN_MS', '999'],
      ['PLATFORM_WAIT_RETRY_MS', '99'],
      ['PLATFORM_WAIT_RETRY_MS', '300001'],
      ['PLATFORM_WAIT_MAX_ATTEMPTS', '0'],
      ['PLATFORM_WAIT_MAX_ATTEMPTS', '51'],
    ]) {
      expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    }
  });

  it('logs one pretty line per event in development and JSON elsewhere, unless LOG_FORMAT says otherwise', () => {
    expect(parseConfig({}).logFormat).toBe('pretty');
    expect(parseConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(parseConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => parseConfig({ LOG_FORMAT: 'fancy' })).toThrow('LOG_FORMAT');
  });

  it('reads REDIS_CLUSTER (off by default) and refuses it without REDIS_URL', () => {
    expect(parseConfig({}).redisCluster).toBe(false);
    expect(parseConfig({ REDIS_URL: 'redis://node-1:7000', REDIS_CLUSTER: 'true' }).redisCluster).toBe(true);
    expect(() => parseConfig({ REDIS_CLUSTER: 'true' })).toThrow('REDIS_CLUSTER=true needs REDIS_URL');
  });

  it('parses roles, lists and booleans', () => {
    const c = parseConfig({
      ROLES: 'worker, scheduler',
      WEBHOOK_RETRY_DELAYS_MS: '100,200',
      WEBHOOK_ALLOW_INSECURE: 'true',
      MIGRATE_ON_START: 'false',
    });
    expect([...c.roles]).toEqual(['worker', 'scheduler']);
    expect(c.webhookRetryDelaysMs).toEqual([100, 200]);
    expect(c.webhookAllowInsecure).toBe(true);
    expect(c.migrateOnStart).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ ROLES: 'api,cook' }, 'ROLES'],
    [{ VOICE_PROVIDER: 'twilio' }, 'VOICE_PROVIDER'],
    [{ WEBHOOK_RETRY_DELAYS_MS: '10,soon' }, 'WEBHOOK_RETRY_DELAYS_MS'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: '0' }, 'WEBHOOK_ENDPOINT_CONCURRENCY'],
    [{ WEBHOOK_ORGANIZATION_CONCURRENCY: '26' }, 'WEBHOOK_ORGANIZATION_CONCURRENCY'],
    [{ NODE_ENV: 'production' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://x' }, 'CURSOR_SECRET'],
    [{ ...production, CURSOR_SECRET: 'c'.repeat(31) }, 'CURSOR_SECRET must be at least 32 characters'],
    [{ ...production, ADMIN_TOKEN: 'a'.repeat(31) }, 'ADMIN_TOKEN must be at least 32 characters'],
    [{ ...production, ADMIN_TOKEN: 'x' }, 'ADMIN_TOKEN'],
    [
      { ...production, CURSOR_SECRET: 'dev-only-cursor-secret-change-me-in-production' },
      'CURSOR_SECRET is a value published',
    ],
    [{ ...production, ADMIN_TOKEN: 'change-me-local-only-admin-token' }, 'ADMIN_TOKEN is a value published'],
    [{ ...production, CURSOR_SECRET: 'change-me-local-only-cursor-secret' }, 'CURSOR_SECRET is a value published'],
    [{ ...production, ADMIN_TOKEN: 'b'.repeat(32) }, 'ADMIN_TOKEN must hold at least 16 different characters'],
    [{ ...production, CURSOR_SECRET: 'ABCDEFGHIJKLMNO'.repeat(3) }, 'CURSOR_SECRET must hold at least 16 different'],
    [{ ...production, VAPI_WEBHOOK_SECRET: 'secret-secret-secret' }, 'VAPI_WEBHOOK_SECRET must hold at least 16'],
    [{ ...production, WHATSAPP_VERIFY_TOKEN: 'verify' }, 'WHATSAPP_VERIFY_TOKEN must be at least 16 characters'],
    [
      { ...production, WEBHOOK_ALLOW_INSECURE: 'true' },
      'WEBHOOK_ALLOW_INSECURE=true is refused when NODE_ENV=production',
    ],
    [{ WEBHOOK_PRIVATE_NETWORKS: '10.0.0.0/8,intranet' }, 'WEBHOOK_PRIVATE_NETWORKS: "intranet" is not a CIDR range'],
    [{ WEBHOOK_PRIVATE_NETWORKS: '10.0.0.0/33' }, 'WEBHOOK_PRIVATE_NETWORKS'],
    [{ AUTH_FAILURE_LIMIT_PER_MINUTE: '0' }, 'AUTH_FAILURE_LIMIT_PER_MINUTE'],
    [{ VOICE_PROVIDER: 'vapi', VAPI_WEBHOOK_SECRET: 's' }, 'VAPI_API_KEY'],
    [{ VOICE_PROVIDER: 'vapi', VAPI_API_KEY: 'k' }, 'VAPI_WEBHOOK_SECRET'],
    [{ CALL_MAX_DURATION_MS: '0' }, 'CALL_MAX_DURATION_MS'],
    [{ VAPI_MAX_RETRIES: '50' }, 'VAPI_MAX_RETRIES'],
    [{ VAPI_MAX_CONCURRENT_CALLS: '0' }, 'VAPI_MAX_CONCURRENT_CALLS'],
    [{ VAPI_REPORT_GRACE_MS: '-1' }, 'VAPI_REPORT_GRACE_MS'],
    [{ ...production, VAPI_REPORT_GRACE_MS: '15000' }, 'VAPI_REPORT_GRACE_MS must be at least 31000'],
    [{ ...production, SECRETS_KEY: undefined }, 'SECRETS_KEY is required when NODE_ENV=production'],
    [{ PUBLIC_BASE_URL: 'calls.example.com' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'https://u:p@calls.example.com' }, 'PUBLIC_BASE_URL'],
    [
      { ...production, VOICE_PROVIDER: 'vapi', VAPI_API_KEY: 'k', VAPI_WEBHOOK_SECRET: SIXTEEN_DISTINCT },
      'PUBLIC_BASE_URL is required when VOICE_PROVIDER=vapi in production',
    ],
    [{ ...production, PUBLIC_BASE_URL: 'http://calls.example.com' }, 'PUBLIC_BASE_URL must be an https origin'],
    [
      { MESSAGING_PROVIDER: 'whatsapp', WHATSAPP_APP_SECRET: 's', WHATSAPP_VERIFY_TOKEN: 'v' },
      'WHATSAPP_ACCESS_TOKEN is required',
    ],
    [{ MESSAGING_PROVIDER: 'whatsapp', WHATSAPP_ACCESS_TOKEN: 't' }, 'WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN are'],
    [{ ...whatsapp, WHATSAPP_GRAPH_URL: 'https://graph.facebook.com' }, 'WHATSAPP_GRAPH_URL'],
    [{ SECRETS_KEY: 'too-short' }, 'SECRETS_KEY must be 32 bytes'],
    [{ ...production, SECRETS_KEY: '0'.repeat(64) }, 'SECRETS_KEY must hold at least 16 different bytes'],
    [{ ...production, SECRETS_KEY: '0123456789abcde0'.repeat(4) }, 'SECRETS_KEY must hold at least 16 different bytes'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });

  it('MESSAGING_PROVIDER=whatsapp starts with its settings, and the refusal never prints a secret', () => {
    expect(parseConfig(whatsapp).messagingProvider).toBe('whatsapp');
    const refusal = () => parseConfig({ ...whatsapp, WHATSAPP_ACCESS_TOKEN: '' });
    expect(refusal).toThrow('WHATSAPP_ACCESS_TOKEN is required when MESSAGING_PROVIDER=whatsapp');
    expect(refusal).not.toThrow(whatsapp.WHATSAPP_APP_SECRET);
  });

  it('reads SECRETS_KEY as 32 bytes and has no default key', () => {
    expect(parseConfig({}).secretsKey).toBeUndefined();
    // Signing secrets are sealed all the same outside production: with the published development key.
    expect(parseConfig({}).signingKey).toEqual(DEV_SIGNING_KEY);
    expect(parseConfig(production).signingKey).toEqual(Buffer.from(production.SECRETS_KEY, 'hex'));
    expect(parseConfig({ ...production, VAPI_REPORT_GRACE_MS: '31000' }).vapi.reportGraceMs).toBe(31_000);
    expect(parseConfig({ SECRETS_KEY: 'ab'.repeat(32) }).secretsKey).toEqual(Buffer.alloc(32, 0xab));
    const random = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
    expect(parseConfig({ ...production, SECRETS_KEY: random }).secretsKey).toEqual(Buffer.from(random, 'hex'));
  });

  it('accepts production secrets of exactly 32 characters, 16 of them different, that are not published', () => {
    const c = parseConfig({ ...production, ADMIN_TOKEN: SIXTEEN_DISTINCT, VAPI_WEBHOOK_SECRET: 'ABCDEFGHIJKLMNOP' });
    expect(c.cursorSecret).toBe(production.CURSOR_SECRET);
    expect(c.adminToken).toBe(SIXTEEN_DISTINCT);
  });

  it('does not judge credentials a provider issues (a hexadecimal app secret may hold fewer than 16 characters)', () => {
    const c = parseConfig({ ...production, WHATSAPP_APP_SECRET: 'abc123'.repeat(6), VAPI_API_KEY: '0123-4567' });
    expect(c.raw.WHATSAPP_APP_SECRET).toBe('abc123'.repeat(6));
  });

  it('reads WEBHOOK_PRIVATE_NETWORKS as a CIDR list, allowed in production (WEBHOOK_ALLOW_INSECURE is not)', () => {
    expect(parseConfig({}).webhookPrivateNetworks).toEqual([]);
    const c = parseConfig({ ...production, WEBHOOK_PRIVATE_NETWORKS: '10.0.0.0/8, fd00::/8,192.168.1.0/24' });
    expect(c.webhookPrivateNetworks).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.0/24']);
    expect(c.webhookAllowInsecure).toBe(false);
  });

  it('trusts no proxy unless TRUST_PROXY says so (true, or the addresses of the proxies)', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(parseConfig({}).authFailureLimitPerMinute).toBe(100);
  });
});
