import { HttpClient } from '../support/http';
import { useWhatsAppWorld } from './whatsapp-world';

/**
 * A messaging account stores its platform when it is made (docs/providers.md, "The platform per number"): a live
 * account made on WhatsApp keeps sending through WhatsApp after the service restarts with
 * MESSAGING_PROVIDER=simulator (WhatsApp's settings kept).
 */
describe('a messaging account keeps its platform across a change of MESSAGING_PROVIDER', () => {
  const w = useWhatsAppWorld();

  it('a live WhatsApp account still sends through the Graph API after a restart on the simulator default', async () => {
    const { conversationId } = await w.userWhoWrote();
    await w.t.app.close();
    const restarted = await w.t.startPeer({ MESSAGING_PROVIDER: 'simulator' });
    const api = new HttpClient(restarted.baseUrl, { 'x-api-key': w.org.key });
    const before = w.graph.sends().length;

    const res = await api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'Still here' });
    expect(res.status).toBe(201);
    expect(
      w.graph
        .sends()
        .slice(before)
        .map((r) => r.body),
    ).toEqual([expect.objectContaining({ type: 'text', text: expect.objectContaining({ body: 'Still here' }) })]);
  }, 60_000);
});
