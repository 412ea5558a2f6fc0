import { ConfigError, parseConfig } from './app-config';

describe('parseConfig', () => {
  it('applies the CONTRACTS §1 defaults', () => {
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
      migrateOnStart: true,
      logLevel: 'info',
    });
    expect([...c.roles]).toEqual(['api', 'worker', 'scheduler']);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
  });

  it('reads the Vapi adapter and supervision settings (CONTRACTS §5)', () => {
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
    });
    expect(parseConfig({}).vapi.baseUrl).toBe('https://api.vapi.ai');
    expect(parseConfig({}).callSupervision).toEqual({ maxDurationMs: 3_600_000, graceMs: 120_000 });
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
    [{ NODE_ENV: 'production' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://x' }, 'CURSOR_SECRET'],
    [{ VOICE_PROVIDER: 'vapi', VAPI_WEBHOOK_SECRET: 's' }, 'VAPI_API_KEY'],
    [{ VOICE_PROVIDER: 'vapi', VAPI_API_KEY: 'k' }, 'VAPI_WEBHOOK_SECRET'],
    [{ CALL_MAX_DURATION_MS: '0' }, 'CALL_MAX_DURATION_MS'],
    [{ VAPI_MAX_RETRIES: '50' }, 'VAPI_MAX_RETRIES'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });
});
