import type { EntityManager } from 'typeorm';

/**
 * Every advisory lock the service takes, in one place, so no two features can share a key by accident and no
 * session-level lock creeps in. All are transaction-scoped (`pg_advisory_xact_lock`): released at COMMIT or
 * ROLLBACK, they work through a transaction-pooling PgBouncer (docs/operations.md), where a session lock would
 * stay on whichever server connection the pooler handed over and leak to the next client.
 *
 * A lock is two 32-bit keys: a space (one per feature, spelled as four ASCII letters or two) and a key within
 * it (`hashtext` of an id, or 0 for a feature's single lock). `src/infra/database/advisory-locks.spec.ts`
 * fails on an advisory lock taken anywhere else in `src/` and on two spaces with the same number.
 */
export const LOCK_SPACES = {
  /** Per organization: every dial decision (calls/dispatch) and do-not-call listing. */
  admission: 0x4144, // "AD"
  /** The voice platform's shared account pool: one lock, taken after the organization's admission lock. */
  voicePlatformPool: 0x504f, // "PO"
  /** Per organization: the caps on resources listed without pagination (common/limits/organization-cap.ts). */
  phoneNumbersCap: 0x70686e6e, // "phnn"
  messagingAccountsCap: 0x6d616363, // "macc"
  outboundAssistantsCap: 0x6f617374, // "oast"
  inboundAssistantsCap: 0x69617374, // "iast"
  contactGroupsCap: 0x63677270, // "cgrp"
  webhooksCap: 0x77656268, // "webh"
  toolsCap: 0x746f6f6c, // "tool"
  /** Per case: its scenarios' cap (scenarios/). */
  scenariosCap: 0x7363656e, // "scen"
  /** Per organization: its scenario runs' budget (runs per minute, runs in flight). */
  scenarioRuns: 0x7372756e, // "srun"
  /**
   * Per webhook endpoint: its delivery slots. Taken inside the SQL functions `webhook_delivery_claim`,
   * `webhook_delivery_claim_many` and `webhook_delivery_claim_batch` (migrations WebhookClaimSlotFunction,
   * WebhookClaimSlotsBatch and WebhookClaimSlotsAcrossEndpoints, which spell the number out: 2004053108); the spec
   * checks they agree.
   */
  webhookEndpointSlots: 0x77736c74, // "wslt"
  /** Per conversation: the chat agent's reply claims, one turn at a time (messaging/chat-agent). */
  conversationReplies: 0x63727079, // "crpy"
  /** Per Retell agent source (organization, case, assistant): its LLM and agent made or updated once. */
  retellAgents: 0x72746c61, // "rtla"
} as const;

export type LockSpace = keyof typeof LOCK_SPACES;

/** Anything that runs SQL inside the caller's transaction. */
type Queryable = Pick<EntityManager, 'query'>;

/**
 * Takes the lock (space, key) until the caller's transaction ends. `key` is an id (hashed with `hashtext`) or
 * omitted for the space's single lock. Outside a transaction it would be released at once: call it only with a
 * transaction's manager.
 */
export async function lockForTransaction(m: Queryable, space: LockSpace, key?: string): Promise<void> {
  if (key === undefined) {
    await m.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_SPACES[space]]);
  } else {
    await m.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACES[space], key]);
  }
}

/**
 * The organization's "which outbound assistant is the default" lock. A one-key lock (a 64-bit hash of a name,
 * not a space and a key) because releases before this module took it so; one-key and two-key locks never
 * collide in PostgreSQL, and keeping the derivation lets a process of the previous release run beside this one.
 */
export async function lockOutboundAssistantDefault(m: Queryable, organizationId: string): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `outbound-assistant-default:${organizationId}`,
  ]);
}
