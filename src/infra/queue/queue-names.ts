/**
 * Every queue and job in one place. A job name maps to exactly one queue; start-up fails when a job has no
 * handler or two (see JobRegistry).
 */
export enum QueueName {
  /** Domain events relayed from the outbox, fanned out to consumers (webhooks). */
  DomainEvents = 'domain-events',
  /** Periodic housekeeping ticks (cluster-wide cron). */
  Maintenance = 'maintenance',
  /** Outbound calls due for dispatch (job id = call id), and the sweeper that re-enqueues lost ones. */
  CallDispatch = 'call-dispatch',
  /** Voice-platform events (status, transcript, end-of-call report) to apply to calls; the simulator's timeline. */
  VoiceEvents = 'voice-events',
  /** One HTTP attempt of one event to one webhook endpoint, or the first attempts of one event to its endpoints. */
  WebhookDeliveries = 'webhook-deliveries',
  /**
   * Chat messaging: outbound sends waiting for their pace or a retry; the simulator's delivery-status reports; the
   * chat agent's answers; scenario runs (extension),
   * which are chat conversations with a case's assistant too. Not a queue of their own: on PostgreSQL queues each
   * queue holds its own connections (a LISTEN and a pool), and the server's connections are shared by every process.
   */
  Messaging = 'messaging',
  /** The dialer (extension): campaign steps and the cluster-wide tick that drives them. */
  Campaigns = 'campaigns',
}

export enum JobName {
  /** A relayed outbox event; data: OutboxEventMessage. */
  DomainEvent = 'domain-event',
  PruneIdempotencyKeys = 'prune-idempotency-keys',
  PruneOutbox = 'prune-outbox',
  /** Re-enqueue relayed events still unprocessed after the grace period (their job was lost with the queue store). */
  ReplayDomainEvents = 'replay-domain-events',
  /** Claim and dispatch one call; data: { callId }. */
  DispatchCall = 'dispatch-call',
  /** A slot of an organization freed: enqueue its oldest calls waiting for admission; data: { organizationId }. */
  AdmitQueuedCalls = 'admit-queued-calls',
  /** Re-enqueue due calls whose job is missing; unstick stale claims. */
  SweepCalls = 'sweep-calls',
  /** One step of a simulated call's timeline (ids and timings; the event is rebuilt from the call). */
  PlaySimulatorStep = 'play-simulator-step',
  /** Reconcile calls processing past their maximum duration plus grace with the voice platform. */
  SuperviseCalls = 'supervise-calls',
  /**
   * A call the platform reported ended whose end-of-call report has not come within the grace: ask the platform
   * and finish the call from its answer; data: { callId } (job id per call, so it runs once).
   */
  RecoverCallReport = 'recover-call-report',
  /** data: WebhookDeliveryJobData. */
  DeliverWebhook = 'deliver-webhook',
  /** data: WebhookEventDeliveryJobData (an event's first attempts, one job for all its endpoints). */
  DeliverWebhookEvent = 'deliver-webhook-event',
  PruneWebhookDeliveries = 'prune-webhook-deliveries',
  SweepWebhookDeliveries = 'sweep-webhook-deliveries',
  /** Minute ledger period boundaries: subscription renewals and trial expiries (cluster-wide tick). */
  RenewSubscriptions = 'renew-subscriptions',
  /** One simulated delivery-status report of an outbound message; data: SimulatedStatusJobData. */
  SimulateMessageStatus = 'simulate-message-status',
  /**
   * An outbound message not sent at once (paced, rate-limited, Meta's trouble, or unanswered and waiting for its
   * status webhook): one attempt of its send; data: SendMessageJobData (job id per message).
   */
  SendMessage = 'send-message',
  /**
   * Queues again the sends of outbound messages left unsent with no live job (a process died mid-send, the job was
   * never queued or gave up on our side), from the request kept on the row; cluster-wide tick.
   */
  SweepUnsentMessages = 'sweep-unsent-messages',
  /** The chat agent answers one inbound user message; data: { messageId } (job id per message). */
  AnswerChatMessage = 'answer-chat-message',
  /** Steps every campaign with work due (start time, retries, window openings, auto-resume); cluster-wide tick. */
  CampaignTick = 'campaign-tick',
  /** One step of one campaign, soon after one of its calls finished or it was started; data: { campaignId }. */
  AdvanceCampaign = 'advance-campaign',
  /** Places the campaign of each due occurrence of an active recurring schedule (cluster-wide tick). */
  RecurringScheduleTick = 'recurring-schedule-tick',
  /** Plays one scenario run; data: { runId } (job id per run). */
  PlayScenarioRun = 'play-scenario-run',
  /** Enqueues again scenario runs left queued or running by a lost job or worker (cluster-wide tick). */
  SweepScenarioRuns = 'sweep-scenario-runs',
}

export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.DomainEvent]: QueueName.DomainEvents,
  [JobName.PruneIdempotencyKeys]: QueueName.Maintenance,
  [JobName.PruneOutbox]: QueueName.Maintenance,
  [JobName.ReplayDomainEvents]: QueueName.Maintenance,
  [JobName.DispatchCall]: QueueName.CallDispatch,
  [JobName.AdmitQueuedCalls]: QueueName.CallDispatch,
  [JobName.SweepCalls]: QueueName.CallDispatch,
  [JobName.PlaySimulatorStep]: QueueName.VoiceEvents,
  [JobName.SuperviseCalls]: QueueName.CallDispatch,
  [JobName.RecoverCallReport]: QueueName.VoiceEvents,
  [JobName.DeliverWebhook]: QueueName.WebhookDeliveries,
  [JobName.DeliverWebhookEvent]: QueueName.WebhookDeliveries,
  [JobName.PruneWebhookDeliveries]: QueueName.Maintenance,
  [JobName.SweepWebhookDeliveries]: QueueName.Maintenance,
  [JobName.RenewSubscriptions]: QueueName.Maintenance,
  [JobName.SimulateMessageStatus]: QueueName.Messaging,
  [JobName.SendMessage]: QueueName.Messaging,
  [JobName.SweepUnsentMessages]: QueueName.Messaging,
  [JobName.AnswerChatMessage]: QueueName.Messaging,
  [JobName.CampaignTick]: QueueName.Campaigns,
  [JobName.AdvanceCampaign]: QueueName.Campaigns,
  [JobName.RecurringScheduleTick]: QueueName.Campaigns,
  [JobName.PlayScenarioRun]: QueueName.Messaging,
  [JobName.SweepScenarioRuns]: QueueName.Messaging,
};

/** How many jobs of a queue one worker process runs at once. */
export const QUEUE_CONCURRENCY: Record<QueueName, number> = {
  [QueueName.DomainEvents]: 20,
  [QueueName.Maintenance]: 1,
  // Dispatches wait mostly on shared batches (claims, an organization's reservations, call.started records):
  // the more run at once, the fuller each batch, and a burst costs fewer round trips per call.
  [QueueName.CallDispatch]: 200,
  [QueueName.VoiceEvents]: 50,
  // Deliveries mostly wait on the network; many run at once so one slow receiver (bounded by the timeout)
  // holds only its own slots.
  [QueueName.WebhookDeliveries]: 50,
  [QueueName.Messaging]: 10,
  // Steps of one campaign serialise on its row lock; several campaigns step side by side.
  [QueueName.Campaigns]: 10,
};
