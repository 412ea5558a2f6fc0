/**
 * Every queue and job in one place. A job name maps to exactly one queue; start-up fails when a job has no
 * handler or two (see JobRegistry).
 */
export enum QueueName {
  /** Domain events relayed from the outbox, fanned out to consumers (webhooks). */
  DomainEvents = 'domain-events',
  /** Periodic housekeeping ticks (cluster-wide cron). */
  Maintenance = 'maintenance',
  /** One HTTP attempt of one event to one webhook endpoint. */
  WebhookDeliveries = 'webhook-deliveries',
}

export enum JobName {
  /** A relayed outbox event; data: OutboxEventMessage. */
  DomainEvent = 'domain-event',
  PruneIdempotencyKeys = 'prune-idempotency-keys',
  PruneOutbox = 'prune-outbox',
  /** data: WebhookDeliveryJob. */
  DeliverWebhook = 'deliver-webhook',
  PruneWebhookDeliveries = 'prune-webhook-deliveries',
  /** Minute ledger period boundaries: subscription renewals and trial expiries (cluster-wide tick). */
  RenewSubscriptions = 'renew-subscriptions',
}

export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.DomainEvent]: QueueName.DomainEvents,
  [JobName.PruneIdempotencyKeys]: QueueName.Maintenance,
  [JobName.PruneOutbox]: QueueName.Maintenance,
  [JobName.DeliverWebhook]: QueueName.WebhookDeliveries,
  [JobName.PruneWebhookDeliveries]: QueueName.Maintenance,
  [JobName.RenewSubscriptions]: QueueName.Maintenance,
};

/** How many jobs of a queue one worker process runs at once. */
export const QUEUE_CONCURRENCY: Record<QueueName, number> = {
  [QueueName.DomainEvents]: 20,
  [QueueName.Maintenance]: 1,
  // Deliveries mostly wait on the network; many run at once so one slow receiver (bounded by the timeout)
  // holds only its own slots.
  [QueueName.WebhookDeliveries]: 50,
};
