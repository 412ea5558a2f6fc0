import { messageChange, webhookOf } from './whatsapp-webhooks';
import { PHONE_NUMBER_ID, PROCESS_TOKEN, WABA_ID, useWhatsAppWorld } from './whatsapp-world';

type Body = Record<string, any>;

/** A defect Meta's published `Message` schema refuses, one per kind we send; none is a field the API lets through. */
const REFUSED: Array<{ kind: string; request: Body; defect: string; edit: (body: Body) => Body }> = [
  {
    kind: 'text',
    request: { type: 'text', text: 'Hello' },
    defect: 'an unknown field inside the text object',
    edit: (b) => ({ ...b, text: { ...b.text, preview: true } }),
  },
  {
    kind: 'template',
    request: { type: 'template', templateName: 'reminder', templateLanguage: 'en_US', variables: { 1: 'A', 2: 'B' } },
    defect: 'a language policy Meta does not define',
    edit: (b) => ({ ...b, template: { ...b.template, language: { ...b.template.language, policy: 'fallback' } } }),
  },
  {
    kind: 'image',
    request: { type: 'image', link: 'https://files.example.com/a.jpg', caption: 'Receipt' },
    defect: 'a link that is a number',
    edit: (b) => ({ ...b, image: { ...b.image, link: 42 } }),
  },
  {
    kind: 'audio',
    request: { type: 'audio', mediaId: '1013859600285441' },
    defect: 'a media id that is a number',
    edit: (b) => ({ ...b, audio: { id: 1013859600285441 } }),
  },
  {
    kind: 'video',
    request: { type: 'video', link: 'https://files.example.com/a.mp4' },
    defect: 'a link that is no URL',
    edit: (b) => ({ ...b, video: { link: 'files example com a.mp4' } }),
  },
  {
    kind: 'document',
    request: { type: 'document', link: 'https://files.example.com/a.pdf', filename: 'a.pdf' },
    defect: 'a link that is a list',
    edit: (b) => ({ ...b, document: { ...b.document, link: [b.document.link] } }),
  },
  {
    kind: 'sticker',
    request: { type: 'sticker', mediaId: '1013859600285442' },
    defect: 'a caption, which a sticker does not take',
    edit: (b) => ({ ...b, sticker: { ...b.sticker, caption: 'hi' } }),
  },
  {
    kind: 'text',
    request: { type: 'text', text: 'Hello' },
    defect: 'a recipient type Meta does not define',
    edit: (b) => ({ ...b, recipient_type: 'broadcast' }),
  },
];

/**
 * The strict fake Graph API judges every send by Meta's own published `Message` schema: one defective body per
 * kind we send is refused as Meta refuses (HTTP 400, Meta's error envelope, code 100), and our API answers it as
 * any refusal of Meta's (502 MESSAGING_API_ERROR carrying Meta's code, nothing stored). The bodies our adapter
 * really writes pass (every other WhatsApp spec sends them through the same fake).
 */
describe("messaging: sends judged by Meta's published schema (strict fake Graph API)", () => {
  const w = useWhatsAppWorld();

  // A file goes out by id only if a user sent it to the account (docs/providers.md): a user sends the ones below.
  beforeAll(async () => {
    const { phone } = await w.userWhoWrote();
    const files = { audio: 'audio/ogg', sticker: 'image/webp' } as Record<string, string>;
    for (const c of REFUSED.filter((r) => r.request.mediaId)) {
      const file = {
        id: `wamid.file.${c.request.mediaId}`,
        type: c.kind,
        [c.kind]: { id: c.request.mediaId, mime_type: files[c.kind] },
      };
      const status = await w.graph.sendWebhook(webhookOf(WABA_ID, messageChange(PHONE_NUMBER_ID, { phone }, file)));
      if (status !== 200) throw new Error(`inbound ${c.kind} answered ${status}`);
    }
  });

  it.each(REFUSED)('$kind with $defect is refused with code 100 and surfaces as a 502', async (c) => {
    const { conversationId } = await w.userWhoWrote();
    const messages = async () =>
      (await w.org.api.get(`/api/v1/messaging/conversations/${conversationId}`)).body.data.messageCount;
    const before = await messages();
    const sends = w.graph.sends().length;
    let judged: Body | undefined;
    w.graph.alterNextSend((body) => (judged = c.edit(body)));

    const res = await w.org.api.post('/api/v1/messaging/messages', { ...c.request, conversationId });

    expect(w.graph.sends().length).toBe(sends + 1);
    expect(w.graph.lastRequest().body.type).toBe(c.kind);
    expect(judged).toBeDefined();
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('MESSAGING_API_ERROR');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'provider', providerCode: 100 })]);
    expect(await messages()).toBe(before);
  });

  it("answers a refused body in Meta's error envelope: HTTP 400, OAuthException, code 100, the schema's complaint", async () => {
    const res = await fetch(`${w.graph.url}/v25.0/${PHONE_NUMBER_ID}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PROCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '14155550123',
        type: 'text',
        text: { body: 'Hello', preview: true },
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: '(#100) Invalid parameter',
        type: 'OAuthException',
        code: 100,
        error_data: { messaging_product: 'whatsapp', details: expect.stringContaining('/text') },
        fbtrace_id: expect.any(String),
      },
    });
  });

  it('the same bodies unaltered are accepted', async () => {
    const { conversationId } = await w.userWhoWrote();
    for (const c of REFUSED) {
      const res = await w.org.api.post('/api/v1/messaging/messages', { ...c.request, conversationId });
      expect({ kind: c.kind, status: res.status }).toEqual({ kind: c.kind, status: 201 });
    }
  });
});
