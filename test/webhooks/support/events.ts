import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TranscriptMessage } from '../../../src/modules/calls/call.entity';
import { OutboxService } from '../../../src/modules/outbox/outbox.service';
import { TestApp } from '../../support/test-app';
import { inTransaction } from '../../../src/infra/database/tx';

type ContactEvent = 'contact.created' | 'contact.updated' | 'contact.deleted';

let phones = 0;

/**
 * Records a contact event through the real outbox, as the contacts service does inside its transaction, for a
 * contact row of its own (inserted without an event of its own, titled `title`); `contact.deleted` records the
 * given Contact as it was, the row being gone. The webhook body is rendered from that row when it is sent.
 */
export async function recordEvent(
  t: TestApp,
  orgId: string,
  type: ContactEvent,
  title: string,
  livemode = true,
): Promise<string> {
  const owner = { organizationId: orgId, livemode };
  const contactId = randomUUID();
  return inTransaction(t.app.get(DataSource), async (m) => {
    const outbox = t.app.get(OutboxService);
    if (type === 'contact.deleted') {
      return outbox.record(m, owner, type, { contactId, contact: { id: contactId, title } });
    }
    const phone = `+1555${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;
    await m.query(`INSERT INTO contacts (id, organization_id, livemode, title, phone) VALUES ($1, $2, $3, $4, $5)`, [
      contactId,
      orgId,
      livemode,
      title,
      phone,
    ]);
    return outbox.record(m, owner, type, { contactId });
  });
}

/** A finished call's row and its `call.ended` event, as the call's end records them. */
export async function recordCallEnded(
  t: TestApp,
  orgId: string,
  transcript: TranscriptMessage[],
): Promise<{ eventId: string; callId: string }> {
  const callId = randomUUID();
  const eventId = await inTransaction(t.app.get(DataSource), async (m) => {
    await m.query(
      `INSERT INTO calls (id, organization_id, livemode, status, direction, call_from, call_to, transcript, ended_at)
       VALUES ($1, $2, true, 'ended', 'outbound', '+15550000001', '+15550000002', $3, now())`,
      [callId, orgId, JSON.stringify(transcript)],
    );
    return t.app.get(OutboxService).record(m, { organizationId: orgId, livemode: true }, 'call.ended', {
      callId,
      direction: 'outbound',
      callTo: '+15550000002',
      contactId: null,
      caseId: null,
      campaignId: null,
      endedReason: null,
      endedAt: new Date().toISOString(),
    });
  });
  return { eventId, callId };
}
