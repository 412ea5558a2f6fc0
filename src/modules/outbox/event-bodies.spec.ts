import { EventBodies } from './event-bodies';
import type { CallEventPayload } from './event-payloads';

describe('EventBodies', () => {
  const world = { organizationId: 'org', livemode: true };

  function callBodies(rendered: string[]): EventBodies {
    const bodies = new EventBodies();
    const render = async (_: unknown, { callId }: CallEventPayload) => {
      rendered.push(callId);
      return { id: callId };
    };
    bodies.register({
      'call.started': render,
      'call.ended': render,
      'call.failed': render,
      'call.scheduled': render,
      'call.cancelled': render,
    });
    return bodies;
  }

  it('renders with the renderer its family registered, and names the types nobody registered', async () => {
    const rendered: string[] = [];
    const bodies = callBodies(rendered);
    expect(await bodies.render('call.cancelled', world, { callId: 'c1' })).toEqual({ id: 'c1' });
    expect(rendered).toEqual(['c1']);
    expect(bodies.missing()).toContain('contact.created');
    expect(bodies.missing()).not.toContain('call.ended');
    await expect(bodies.render('contact.created', world, { contactId: 'k1' })).rejects.toThrow(
      'No webhook body renderer for contact.created',
    );
  });

  it('never looks up a payload without its subject id (a row of an older release): nothing is sent', async () => {
    const rendered: string[] = [];
    const bodies = callBodies(rendered);
    // The shape an older release wrote: the public Call, whose id is `id`.
    expect(await bodies.render('call.ended', world, { id: 'c1', status: 'ended' } as never)).toBeNull();
    // A finished call's other ids may be null; its subject id is what counts.
    const finished = {
      callId: 'c2',
      direction: 'outbound' as const,
      callTo: '+15550000002',
      contactId: null,
      caseId: null,
      campaignId: null,
      endedReason: null,
      endedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(await bodies.render('call.ended', world, finished)).toEqual({ id: 'c2' });
    expect(rendered).toEqual(['c2']);
  });
});
