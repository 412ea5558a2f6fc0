import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbox rows used to hold the public document of what they describe (the Call, the Contact...); they now hold
 * each event type's payload (src/modules/outbox/event-payloads.ts) and the webhook body is rendered when it is
 * sent. Rows written the old way (kept a week) are rewritten here, so every reader knows one shape: the ids come
 * from the document's `id`, a finished call's facts from its fields, a deleted contact keeps its document, a
 * pause its reason. A row already in the new shape has no top-level `id` and is left alone.
 *
 * Irreversible: `down` leaves payloads as they are (older code would send them as bodies until they are pruned).
 */
export class OutboxEventPayloads1795520000000 implements MigrationInterface {
  name = 'OutboxEventPayloads1795520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE outbox_events SET data = CASE
        WHEN type IN ('call.ended', 'call.failed') THEN jsonb_build_object(
          'callId', data->'id', 'direction', data->'direction', 'callTo', data->'callTo',
          'contactId', COALESCE(data->'contactId', 'null'), 'caseId', COALESCE(data->'caseId', 'null'),
          'campaignId', COALESCE(data->'campaignId', 'null'), 'endedReason', COALESCE(data->'endedReason', 'null'),
          'endedAt', COALESCE(data->'endedAt', data->'updatedAt'))
        WHEN type LIKE 'call.%' THEN jsonb_build_object('callId', data->'id')
        WHEN type = 'contact.deleted' THEN jsonb_build_object('contactId', data->'id', 'contact', data)
        WHEN type LIKE 'contact.%' THEN jsonb_build_object('contactId', data->'id')
        WHEN type = 'campaign.paused' THEN
          jsonb_build_object('campaignId', data->'id', 'pausedReason', COALESCE(data->'pausedReason', 'null'))
        WHEN type LIKE 'campaign.%' THEN jsonb_build_object('campaignId', data->'id')
        WHEN type LIKE 'message.%' THEN jsonb_build_object(
          'messageId', data->'id', 'conversationId', data->'conversationId', 'senderType', data->'senderType')
        WHEN type = 'conversation.handed_off' THEN jsonb_build_object('conversationId', data->'id')
        ELSE data END
      WHERE data ? 'id'`);
  }

  public async down(): Promise<void> {
    // Nothing to undo in the schema; see above.
  }
}
