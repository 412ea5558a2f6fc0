import { isIP } from 'node:net';
import { registerAs } from '@nestjs/config';
import { Transform, plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import { parseSecretsKey } from '../secrets/secret-box';
import { DEV_SIGNING_KEY } from '../secrets/signing-secrets';
import { ROLES, Role } from './roles';
import { MESSAGING_PLATFORMS, MessagingPlatform, VOICE_PLATFORMS, VoicePlatform } from './platforms';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : String(value).toLowerCase() === 'true';
const toList = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : String(value)
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);

/**
 * The process environment as the service reads it (docs/contracts/running.md). Every variable is validated once at
 * start-up; a bad value stops the process with a message naming the variable.
 */
class EnvironmentVariables {
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(300_000) REQUEST_TIMEOUT_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(600_000) SHUTDOWN_TIMEOUT_MS?: number;
  @IsOptional() @IsString() DATABASE_URL?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(500) DATABASE_POOL_SIZE?: number;
  @IsOptional() @IsString() DATABASE_DIRECT_URL?: string;
  @IsOptional() @IsString() DATABASE_READ_URL?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(60_000) READ_AFTER_WRITE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(100) @Max(600_000) DATABASE_READ_MAX_LAG_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(65535) EMBEDDED_PG_PORT?: number;
  @IsOptional() @IsString() REDIS_URL?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() REDIS_CLUSTER?: boolean;
  @IsOptional() @IsString() QUEUE_PREFIX?: string;
  @IsOptional() @Transform(toList) @IsIn(ROLES, { each: true }) ROLES?: Role[];
  @IsOptional() @IsString() ADMIN_TOKEN?: string;
  @IsOptional() @IsString() CURSOR_SECRET?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() MIGRATE_ON_START?: boolean;
  @IsOptional() @IsIn(VOICE_PLATFORMS) VOICE_PROVIDER?: string;
  @IsOptional() @IsIn(MESSAGING_PLATFORMS) MESSAGING_PROVIDER?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) SIMULATOR_RING_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) SIMULATOR_CALL_MS?: number;
  @IsOptional() @Transform(toList) WEBHOOK_RETRY_DELAYS_MS?: string[];
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) WEBHOOK_TIMEOUT_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) WEBHOOK_REDELIVERY_GRACE_MS?: number;
  @IsOptional() @Transform(toBool) @IsBoolean() WEBHOOK_ALLOW_INSECURE?: boolean;
  @IsOptional() @Transform(toList) @IsString({ each: true }) WEBHOOK_PRIVATE_NETWORKS?: string[];
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) OUTBOX_REPLAY_GRACE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(10) @Max(3_600_000) OUTBOX_POLL_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) WEBHOOK_ENDPOINT_CONCURRENCY?: number;
  // At most half a worker's delivery slots, so at least two organizations always fit beside each other.
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(25) WEBHOOK_ORGANIZATION_CONCURRENCY?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) AUTH_FAILURE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @IsString() TRUST_PROXY?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  @IsOptional() @IsIn(['json', 'pretty']) LOG_FORMAT?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535) METRICS_PORT?: number;
  @IsOptional() @Transform(toList) @IsString({ each: true }) CORS_ORIGINS?: string[];
  @IsOptional() @IsString() VAPI_API_KEY?: string;
  @IsOptional() @IsString() VAPI_BASE_URL?: string;
  @IsOptional() @IsString() VAPI_WEBHOOK_SECRET?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) VAPI_TIMEOUT_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(10) VAPI_MAX_RETRIES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) VAPI_RETRY_BASE_MS?: number;
  @IsOptional() @IsString() VAPI_CREDENTIAL_ID?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(600_000) VAPI_REPORT_GRACE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10_000) VAPI_MAX_CONCURRENT_CALLS?: number;
  @IsOptional() @IsString() RETELL_API_KEY?: string;
  @IsOptional() @IsString() RETELL_BASE_URL?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(600_000) RETELL_REPORT_GRACE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(600_000) RETELL_ANALYSIS_GRACE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10_000) RETELL_MAX_CONCURRENT_CALLS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(3_600_000) PLATFORM_FAILOVER_COOLDOWN_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(100) @Max(300_000) PLATFORM_WAIT_RETRY_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(50) PLATFORM_WAIT_MAX_ATTEMPTS?: number;
  @IsOptional() @IsString() PUBLIC_BASE_URL?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) CALL_MAX_DURATION_MS?: number;
  @IsOptional() @IsString() SECRETS_KEY?: string;
  @IsOptional() @IsString() WHATSAPP_ACCESS_TOKEN?: string;
  @IsOptional() @IsString() WHATSAPP_APP_SECRET?: string;
  @IsOptional() @IsString() WHATSAPP_VERIFY_TOKEN?: string;
  @IsOptional() @IsString() WHATSAPP_GRAPH_URL?: string;
  @IsOptional() @IsString() WHATSAPP_WABA_ID?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(10) WHATSAPP_MAX_RETRIES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) WHATSAPP_RETRY_BASE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(104857600) WHATSAPP_MEDIA_MAX_BYTES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10000) WHATSAPP_SEND_RATE_PER_SECOND?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(3600000) WHATSAPP_RECIPIENT_INTERVAL_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(1000) WHATSAPP_RECIPIENT_BURST?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(10000) WHATSAPP_SEND_INLINE_WAIT_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(100) @Max(60000) WHATSAPP_REQUEST_TIMEOUT_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(86400000) WHATSAPP_RECONCILE_WAIT_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) CALL_SUPERVISION_GRACE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(3_600_000) CALL_DISPATCH_STALE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(600_000) QUEUE_LOCK_DURATION_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1000) @Max(600_000) QUEUE_STALLED_INTERVAL_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(60000) CHAT_AGENT_RETRY_BASE_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10000) SCENARIO_RUNS_PER_MINUTE?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(1000) SCENARIO_RUNS_IN_FLIGHT?: number;
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** A whole request (headers and body) must arrive within this; later, 408 and the connection closed. */
  requestTimeoutMs: number;
  /**
   * SHUTDOWN_TIMEOUT_MS: how long a SIGTERM may take before the process exits anyway (1 s to 10 min; default 25 s,
   * inside the 30 s a container platform gives before its SIGKILL).
   */
  shutdownTimeoutMs: number;
  /** Unset outside production: an embedded PostgreSQL is started instead. */
  databaseUrl?: string;
  /** Connections per process in the application's PostgreSQL pool. */
  databasePoolSize: number;
  /**
   * A session-capable connection to the primary for what a transaction-pooling PgBouncer cannot carry (migrations,
   * LISTEN, the PostgreSQL queue backend). Unset: DATABASE_URL.
   */
  databaseDirectUrl?: string;
  /** A streaming replica serving the API's GET routes (docs/operations.md, "Read replicas"). Unset: no replica. */
  databaseReadUrl?: string;
  /** After a write by a key (or the admin), that writer's reads go to the primary for this long. */
  readAfterWriteMs: number;
  /** A replica further behind than this (replay lag) is skipped: reads go to the primary until it catches up. */
  databaseReadMaxLagMs: number;
  embeddedPgPort: number;
  /** Unset: BullMQ runs on its PostgreSQL backend in the main database. */
  redisUrl?: string;
  /** REDIS_URL names one node of a Redis Cluster: every Redis client is an ioredis Cluster (src/infra/redis). */
  redisCluster: boolean;
  queuePrefix: string;
  roles: Set<Role>;
  adminToken?: string;
  cursorSecret: string;
  migrateOnStart: boolean;
  /** VOICE_PROVIDER: the platform of a phone number created without one (each call then follows its number's). */
  voiceProvider: VoicePlatform;
  /** The chat agent's first retry after a platform failure; each further one waits twice as long. */
  chatAgentRetryBaseMs: number;
  /** Scenario runs an organization may start a minute, and have queued or running (docs/testing-your-assistant.md). */
  scenarioRunsPerMinute: number;
  scenarioRunsInFlight: number;
  /** MESSAGING_PROVIDER: the platform of a live messaging account when it is made (stored on the account). */
  messagingProvider: MessagingPlatform;
  simulatorRingMs: number;
  simulatorCallMs: number;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  /** How overdue a webhook attempt must be before the sweeper assumes its job was lost with the queue store. */
  webhookRedeliveryGraceMs: number;
  webhookAllowInsecure: boolean;
  /**
   * CIDR ranges of the operator's own network that webhook (and later tool) URLs may reach, over http or https;
   * every other address keeps the public-address and https rules.
   */
  webhookPrivateNetworks: string[];
  /** How long a relayed event may stay unprocessed before the replay assumes its job was lost with the queue store. */
  outboxReplayGraceMs: number;
  /** How often a relay looks for unrelayed events without being woken: the floor under a lost wake-up. */
  outboxPollMs: number;
  /** Attempts in flight per webhook endpoint, across every worker process (decided in PostgreSQL). */
  webhookEndpointConcurrency: number;
  /**
   * Attempts in flight per organization in one worker process (of its 50 delivery slots), which is also its
   * number of sockets to any one host: no organization can take a worker's slots or a host's sockets.
   */
  webhookOrganizationConcurrency: number;
  rateLimitPerMinute: number;
  /** Failed authentications and scope refusals allowed per client address and minute (docs/contracts/bounds.md). */
  authFailureLimitPerMinute: number;
  /**
   * Fastify's `trustProxy`: every peer (true) or which addresses and CIDR ranges (a list) may set X-Forwarded-For.
   * Off by default: the client address is the socket's, which no client can forge.
   */
  trustProxy: boolean | string[];
  logLevel: string;
  /** `pretty`: one coloured line per event (the default in development); `json`: one JSON object per line. */
  logFormat: 'json' | 'pretty';
  /** Unset: no metrics endpoint. Set: Prometheus `/metrics` on this separate port, in every role (0 = any free port). */
  metricsPort?: number;
  /** Origins allowed cross-origin requests; empty (the default) = CORS off. */
  corsOrigins: string[];
  /** VOICE_PROVIDER=vapi (docs/providers.md); key and secret are required then. */
  vapi: {
    apiKey?: string;
    baseUrl: string;
    webhookSecret?: string;
    timeoutMs: number;
    /** Further attempts after a 5xx, 429 or network failure (exponential backoff from retryBaseMs). */
    maxRetries: number;
    retryBaseMs: number;
    /** Vapi's id of the credential (Bearer or HMAC, holding webhookSecret) its server messages are sent with. */
    credentialId?: string;
    /**
     * How long an ended call may wait for its end-of-call-report before Vapi is asked for the call: by default
     * the redelivery window of the backoff plan we give Vapi plus time for Vapi's analysis steps; in production
     * never shorter than that window (a report being redelivered would come after the call was finished).
     */
    reportGraceMs: number;
    /** Live calls on the Vapi account, every organization together (the account's concurrency pool). */
    maxConcurrentCalls: number;
  };
  /**
   * Retell (docs/providers.md, "Retell"): configured when its API key is set. The key also signs Retell's events,
   * tool calls and inbound webhooks (`x-retell-signature`), so there is no second secret.
   */
  retell: {
    apiKey?: string;
    baseUrl: string;
    /** How long an ended call may wait for its `call_ended` report before Retell is asked (GET /v2/get-call). */
    reportGraceMs: number;
    /** How long `call.ended` waits for `call_analyzed` when the call's case has an analysis plan. */
    analysisGraceMs: number;
    /** Live calls on the Retell account, every organization together. */
    maxConcurrentCalls: number;
  };
  /**
   * PLATFORM_FAILOVER_COOLDOWN_MS: how long a platform that failed 5 placements in a row is skipped for numbers
   * with a fallback (docs/providers.md, "Failover").
   */
  platformFailoverCooldownMs: number;
  /**
   * A call on a number without a fallback waits while its platform is unavailable (docs/providers.md, "Waiting
   * for the platform"): placed again after `retryMs`, doubled each attempt up to 5 minutes
   * (PLATFORM_WAIT_RETRY_MS), and ended in error as an unavailable platform's call after `maxAttempts` failed
   * attempts (PLATFORM_WAIT_MAX_ATTEMPTS).
   */
  platformWait: { retryMs: number; maxAttempts: number };
  /**
   * The service's public origin as the voice platform reaches it (PUBLIC_BASE_URL, no trailing slash): every
   * server URL handed to Vapi is `<publicBaseUrl>/platform/vapi/events`. Required with Vapi in production.
   */
  publicBaseUrl?: string;
  /**
   * SECRETS_KEY (32 bytes): seals secrets stored in the database (messaging accounts' own tokens). Unset: no such
   * secret can be stored; there is deliberately no default key.
   */
  secretsKey?: Buffer;
  /**
   * The key sealing webhook and function-tool signing secrets at rest (src/infra/secrets/signing-secrets.ts):
   * SECRETS_KEY, required in production; elsewhere, when it is unset, a published development key.
   */
  signingKey: Buffer;
  /** Supervision: a processing call gets maxDurationMs plus graceMs before the platform is asked about it. */
  callSupervision: { maxDurationMs: number; graceMs: number };
  /**
   * CALL_DISPATCH_STALE_MS: a claim or a dispatch this old without progress belongs to a worker that died; the call
   * sweeper puts the claim back or ends the dispatch in `error`. Longer than the slowest placement (the platform's
   * timeout times its attempts), or a dispatch still waiting on the platform would be ended under it.
   */
  callDispatchStaleMs: number;
  /**
   * BullMQ's lease on a running job (QUEUE_LOCK_DURATION_MS, renewed every half of it) and how often each worker
   * looks for jobs whose lease lapsed (QUEUE_STALLED_INTERVAL_MS): a job of a process that died runs again on
   * another worker at most one interval after its lease ends, which is at most a lock duration after the death. A
   * process that cannot renew in time (its event loop blocked half a lock duration) has its job run a second time.
   */
  queueLocks: { lockDurationMs: number; stalledIntervalMs: number };
  /** The raw environment, for provider adapters that read their own variables (docs/providers.md). */
  raw: Readonly<Record<string, string | undefined>>;
}

/**
 * How long Vapi goes on redelivering a server message our service did not take: the backoff plan every `server`
 * we hand Vapi carries (exponential, 5 retries from 1 s: 1 + 2 + 4 + 8 + 16 s; src/modules/calls/voice/vapi/
 * vapi-server.ts builds the plan from this figure's parts and its spec checks they agree).
 */
export const VAPI_REDELIVERY_WINDOW_MS = 31_000;
/** The report grace by default: the redelivery window and as long again for Vapi's post-call analysis. */
const DEFAULT_REPORT_GRACE_MS = 60_000;

/** Used only outside production, where a fixed secret is harmless and keeps cursors valid across restarts. */
const DEV_CURSOR_SECRET = 'dev-only-cursor-secret-change-me-in-production';

/** Production secrets the service itself checks are at least this long (ADMIN_TOKEN, CURSOR_SECRET)... */
const MIN_SECRET_LENGTH = 32;
/**
 * ...and every secret the operator chooses holds at least this many different characters, which refuses
 * `aaaa...`, `123123...` and the like whatever their length (docs/operations.md, "Configuration").
 */
const MIN_DISTINCT_CHARACTERS = 16;
/**
 * The operator's own secrets besides ADMIN_TOKEN and CURSOR_SECRET. Credentials a provider issues
 * (VAPI_API_KEY, WHATSAPP_ACCESS_TOKEN, WHATSAPP_APP_SECRET) are not judged: they are not ours to choose, and a
 * hexadecimal secret such as Meta's app secret often holds fewer than 16 different characters.
 */
const OPERATOR_SECRETS = ['VAPI_WEBHOOK_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const;
/** ...and none of the values written anywhere in this repository (examples, tests, scripts, old defaults). */
const PUBLISHED_SECRETS = new Set([
  DEV_CURSOR_SECRET,
  'change-me-local-only-cursor-secret',
  'change-me-local-only-admin-token',
  'docker-equivalent-cursor-secret',
  'docker-equivalent-admin-token',
  'demo-admin-token',
  'bench-admin-token',
  'test-admin-token',
]);

export class ConfigError extends Error {}

/** Refuses a weak or published production secret in one line naming the variable (never its value). */
function assertStrongSecret(name: string, value: string | undefined, minLength = MIN_SECRET_LENGTH): void {
  if (value === undefined) return;
  if (value.length < minLength) {
    throw new ConfigError(
      `Invalid environment: ${name} must be at least ${minLength} characters when NODE_ENV=production ` +
        `(generate one with: openssl rand -base64 32)`,
    );
  }
  if (PUBLISHED_SECRETS.has(value)) {
    throw new ConfigError(
      `Invalid environment: ${name} is a value published in the repository; set a secret of your own when ` +
        `NODE_ENV=production (generate one with: openssl rand -base64 32)`,
    );
  }
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) {
    throw new ConfigError(
      `Invalid environment: ${name} must hold at least ${MIN_DISTINCT_CHARACTERS} different characters when ` +
        `NODE_ENV=production (generate one with: openssl rand -base64 32)`,
    );
  }
}

/** `address/prefix` with an IPv4 (prefix 0-32) or IPv6 (0-128) address. */
function isCidr(text: string): boolean {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (!match) return false;
  const family = isIP(match[1]);
  const prefix = Number(match[2]);
  return family !== 0 && prefix <= (family === 4 ? 32 : 128);
}

function trustProxyOf(value: string | undefined): AppConfig['trustProxy'] {
  const text = value?.trim().toLowerCase();
  if (!text || text === 'false') return false;
  if (text === 'true') return true;
  return text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A Graph API base: an http(s) origin and a version path such as `/v25.0` (docs/providers.md). */
const GRAPH_URL = /^https?:\/\/[^/\s]+\/v\d+\.\d+\/?$/;

/**
 * MESSAGING_PROVIDER=whatsapp: what the Cloud API adapter cannot work without, checked before anything starts and
 * refused in one line naming the variables (never their values).
 */
function assertWhatsAppSettings(parsed: EnvironmentVariables): void {
  if (parsed.MESSAGING_PROVIDER !== 'whatsapp') return;
  const required = ['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const;
  const missing = required.filter((name) => !parsed[name]);
  if (missing.length) {
    throw new ConfigError(
      `Invalid environment: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required when ` +
        'MESSAGING_PROVIDER=whatsapp (docs/providers.md walks through getting each)',
    );
  }
  if (parsed.WHATSAPP_GRAPH_URL && !GRAPH_URL.test(parsed.WHATSAPP_GRAPH_URL)) {
    throw new ConfigError(
      'Invalid environment: WHATSAPP_GRAPH_URL must be the Graph API origin with its version, e.g. https://graph.facebook.com/v25.0',
    );
  }
}

/** Validates an environment and turns it into the typed configuration; throws ConfigError naming each bad variable. */
export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = plainToInstance(EnvironmentVariables, env, { enableImplicitConversion: false });
  const errors = validateSync(parsed, { skipMissingProperties: false, whitelist: false });
  if (errors.length) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid environment: ${lines.join(' | ')}`);
  }
  const nodeEnv = (parsed.NODE_ENV ?? 'development') as AppConfig['env'];
  const production = nodeEnv === 'production';
  if (production && !parsed.DATABASE_URL) {
    throw new ConfigError('Invalid environment: DATABASE_URL is required when NODE_ENV=production');
  }
  if (!parsed.DATABASE_URL && (parsed.DATABASE_DIRECT_URL || parsed.DATABASE_READ_URL)) {
    throw new ConfigError(
      'Invalid environment: DATABASE_DIRECT_URL and DATABASE_READ_URL need DATABASE_URL (the embedded database has neither)',
    );
  }
  if (parsed.REDIS_CLUSTER && !parsed.REDIS_URL) {
    throw new ConfigError('Invalid environment: REDIS_CLUSTER=true needs REDIS_URL (any node of the cluster)');
  }
  if (production && !parsed.CURSOR_SECRET) {
    throw new ConfigError('Invalid environment: CURSOR_SECRET is required when NODE_ENV=production');
  }
  if (production) {
    assertStrongSecret('CURSOR_SECRET', parsed.CURSOR_SECRET);
    assertStrongSecret('ADMIN_TOKEN', parsed.ADMIN_TOKEN);
    for (const name of OPERATOR_SECRETS) assertStrongSecret(name, env[name], MIN_DISTINCT_CHARACTERS);
    if (parsed.WEBHOOK_ALLOW_INSECURE) {
      throw new ConfigError(
        'Invalid environment: WEBHOOK_ALLOW_INSECURE=true is refused when NODE_ENV=production; allow receivers ' +
          'on your own network with WEBHOOK_PRIVATE_NETWORKS (CIDR list) instead',
      );
    }
  }
  const privateNetworks = parsed.WEBHOOK_PRIVATE_NETWORKS ?? [];
  const badNetwork = privateNetworks.find((cidr) => !isCidr(cidr));
  if (badNetwork !== undefined) {
    throw new ConfigError(
      `Invalid environment: WEBHOOK_PRIVATE_NETWORKS: "${badNetwork}" is not a CIDR range (e.g. 10.0.0.0/8, fd00::/8)`,
    );
  }
  const retryDelays = (parsed.WEBHOOK_RETRY_DELAYS_MS ?? ['10000', '60000', '300000']).map(Number);
  if (retryDelays.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new ConfigError('Invalid environment: WEBHOOK_RETRY_DELAYS_MS must be comma-separated non-negative integers');
  }
  const voiceProvider = (parsed.VOICE_PROVIDER ?? 'simulator') as AppConfig['voiceProvider'];
  if (voiceProvider === 'vapi' && (!parsed.VAPI_API_KEY || !parsed.VAPI_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid environment: VAPI_API_KEY and VAPI_WEBHOOK_SECRET are required when VOICE_PROVIDER=vapi',
    );
  }
  if (voiceProvider === 'retell' && !parsed.RETELL_API_KEY) {
    throw new ConfigError('Invalid environment: RETELL_API_KEY is required when VOICE_PROVIDER=retell');
  }
  const publicBaseUrl = publicBaseUrlOf(parsed.PUBLIC_BASE_URL, production);
  if (voiceProvider !== 'simulator' && production && !publicBaseUrl) {
    throw new ConfigError(
      `Invalid environment: PUBLIC_BASE_URL is required when VOICE_PROVIDER=${voiceProvider} in production`,
    );
  }
  const secretsKey = parsed.SECRETS_KEY ? parseSecretsKey(parsed.SECRETS_KEY) : undefined;
  if (secretsKey === null) {
    throw new ConfigError(
      'Invalid environment: SECRETS_KEY must be 32 bytes as 64 hex digits or base64 (generate one with: openssl rand -base64 32)',
    );
  }
  // A key typed by hand or left at a placeholder (all zeros, one byte repeated) seals nothing: refused in production.
  if (production && secretsKey && new Set(secretsKey).size < MIN_DISTINCT_CHARACTERS) {
    throw new ConfigError(
      `Invalid environment: SECRETS_KEY must hold at least ${MIN_DISTINCT_CHARACTERS} different bytes when ` +
        'NODE_ENV=production (generate one with: openssl rand -base64 32)',
    );
  }
  if (
    production &&
    parsed.VAPI_REPORT_GRACE_MS !== undefined &&
    parsed.VAPI_REPORT_GRACE_MS < VAPI_REDELIVERY_WINDOW_MS
  ) {
    throw new ConfigError(
      `Invalid environment: VAPI_REPORT_GRACE_MS must be at least ${VAPI_REDELIVERY_WINDOW_MS} when ` +
        "NODE_ENV=production: Vapi redelivers an end-of-call report for that long (our server's backoff plan)",
    );
  }
  assertWhatsAppSettings(parsed);
  if (production && !secretsKey) {
    throw new ConfigError(
      'Invalid environment: SECRETS_KEY is required when NODE_ENV=production: it seals the webhook and tool ' +
        'signing secrets stored in the database (generate one with: openssl rand -base64 32)',
    );
  }
  return {
    env: nodeEnv,
    port: parsed.PORT ?? 3000,
    host: parsed.HOST ?? '0.0.0.0',
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS ?? 30_000,
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS ?? 25_000,
    databaseUrl: parsed.DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE ?? 20,
    databaseDirectUrl: parsed.DATABASE_DIRECT_URL,
    databaseReadUrl: parsed.DATABASE_READ_URL,
    readAfterWriteMs: parsed.READ_AFTER_WRITE_MS ?? 1000,
    databaseReadMaxLagMs: parsed.DATABASE_READ_MAX_LAG_MS ?? 5000,
    embeddedPgPort: parsed.EMBEDDED_PG_PORT ?? 54329,
    redisUrl: parsed.REDIS_URL,
    redisCluster: parsed.REDIS_CLUSTER ?? false,
    queuePrefix: parsed.QUEUE_PREFIX ?? 'vc',
    roles: new Set(parsed.ROLES ?? ROLES),
    adminToken: parsed.ADMIN_TOKEN,
    cursorSecret: parsed.CURSOR_SECRET ?? DEV_CURSOR_SECRET,
    migrateOnStart: parsed.MIGRATE_ON_START ?? true,
    voiceProvider,
    messagingProvider: (parsed.MESSAGING_PROVIDER ?? 'simulator') as AppConfig['messagingProvider'],
    simulatorRingMs: parsed.SIMULATOR_RING_MS ?? 2000,
    simulatorCallMs: parsed.SIMULATOR_CALL_MS ?? 20000,
    webhookRetryDelaysMs: retryDelays,
    webhookTimeoutMs: parsed.WEBHOOK_TIMEOUT_MS ?? 10000,
    webhookRedeliveryGraceMs: parsed.WEBHOOK_REDELIVERY_GRACE_MS ?? 60000,
    webhookAllowInsecure: parsed.WEBHOOK_ALLOW_INSECURE ?? false,
    webhookPrivateNetworks: privateNetworks,
    outboxReplayGraceMs: parsed.OUTBOX_REPLAY_GRACE_MS ?? 60000,
    outboxPollMs: parsed.OUTBOX_POLL_MS ?? 1000,
    chatAgentRetryBaseMs: parsed.CHAT_AGENT_RETRY_BASE_MS ?? 2000,
    scenarioRunsPerMinute: parsed.SCENARIO_RUNS_PER_MINUTE ?? 100,
    scenarioRunsInFlight: parsed.SCENARIO_RUNS_IN_FLIGHT ?? 50,
    // 16 and 25, not 4 and 10: an endpoint takes deliveries per second x attempt time <= its slots, and at 1,000
    // calls/min one endpoint receives ~33/s; 4 and 10 carried ~22-27/s per organization under the mixed benchmark
    // (BENCHMARKS.md, webhook delivery). The organization's share stays above one endpoint's, so one hanging
    // endpoint leaves its organization's other endpoints 9 units.
    webhookEndpointConcurrency: parsed.WEBHOOK_ENDPOINT_CONCURRENCY ?? 16,
    webhookOrganizationConcurrency: parsed.WEBHOOK_ORGANIZATION_CONCURRENCY ?? 25,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE ?? 600,
    authFailureLimitPerMinute: parsed.AUTH_FAILURE_LIMIT_PER_MINUTE ?? 100,
    trustProxy: trustProxyOf(parsed.TRUST_PROXY),
    logLevel: parsed.LOG_LEVEL ?? 'info',
    logFormat: (parsed.LOG_FORMAT ?? (nodeEnv === 'development' ? 'pretty' : 'json')) as AppConfig['logFormat'],
    metricsPort: parsed.METRICS_PORT,
    corsOrigins: parsed.CORS_ORIGINS ?? [],
    vapi: {
      apiKey: parsed.VAPI_API_KEY,
      baseUrl: (parsed.VAPI_BASE_URL ?? 'https://api.vapi.ai').replace(/\/+$/, ''),
      webhookSecret: parsed.VAPI_WEBHOOK_SECRET,
      timeoutMs: parsed.VAPI_TIMEOUT_MS ?? 10000,
      maxRetries: parsed.VAPI_MAX_RETRIES ?? 3,
      retryBaseMs: parsed.VAPI_RETRY_BASE_MS ?? 500,
      credentialId: parsed.VAPI_CREDENTIAL_ID || undefined,
      reportGraceMs: parsed.VAPI_REPORT_GRACE_MS ?? DEFAULT_REPORT_GRACE_MS,
      maxConcurrentCalls: parsed.VAPI_MAX_CONCURRENT_CALLS ?? 10,
    },
    retell: {
      apiKey: parsed.RETELL_API_KEY || undefined,
      baseUrl: (parsed.RETELL_BASE_URL ?? 'https://api.retellai.com').replace(/\/+$/, ''),
      reportGraceMs: parsed.RETELL_REPORT_GRACE_MS ?? 15_000,
      analysisGraceMs: parsed.RETELL_ANALYSIS_GRACE_MS ?? 30_000,
      // Retell's free tier allows 20 concurrent calls.
      maxConcurrentCalls: parsed.RETELL_MAX_CONCURRENT_CALLS ?? 20,
    },
    platformFailoverCooldownMs: parsed.PLATFORM_FAILOVER_COOLDOWN_MS ?? 60_000,
    platformWait: {
      retryMs: parsed.PLATFORM_WAIT_RETRY_MS ?? 5_000,
      maxAttempts: parsed.PLATFORM_WAIT_MAX_ATTEMPTS ?? 10,
    },
    publicBaseUrl,
    callSupervision: {
      maxDurationMs: parsed.CALL_MAX_DURATION_MS ?? 3_600_000,
      graceMs: parsed.CALL_SUPERVISION_GRACE_MS ?? 120_000,
    },
    callDispatchStaleMs: parsed.CALL_DISPATCH_STALE_MS ?? 60_000,
    // BullMQ's own defaults.
    queueLocks: {
      lockDurationMs: parsed.QUEUE_LOCK_DURATION_MS ?? 30_000,
      stalledIntervalMs: parsed.QUEUE_STALLED_INTERVAL_MS ?? 30_000,
    },
    secretsKey,
    signingKey: secretsKey ?? DEV_SIGNING_KEY,
    raw: Object.freeze({ ...env }),
  };
}

/**
 * PUBLIC_BASE_URL as an origin: http(s), no credentials, query or fragment; a path prefix is kept (a service
 * behind a reverse proxy under a sub-path). https only in production: Vapi would send the secret in clear.
 */
function publicBaseUrlOf(value: string | undefined, production: boolean): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      'Invalid environment: PUBLIC_BASE_URL must be an absolute URL, e.g. https://calls.example.com',
    );
  }
  const allowed = production ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol) || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(
      `Invalid environment: PUBLIC_BASE_URL must be an ${production ? 'https' : 'http(s)'} origin without credentials, query or fragment`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The @nestjs/config namespace holding a validated configuration; inject it with `@Inject(APP_CONFIG)`. */
export const appConfigNamespace = (config: AppConfig) => registerAs('app', () => config);
export const APP_CONFIG = appConfigNamespace({} as AppConfig).KEY;
