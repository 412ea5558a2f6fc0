import { MESSAGE_KINDS } from '../../src/modules/messaging/message-payload';
import { MetaSchema } from './meta-schema';
import { createAccount } from './messaging-fixtures';
import { useWhatsAppWorld } from './whatsapp-world';

const examples = MetaSchema.get().webhookExamples();

/**
 * Meta's own published inbound webhook examples (its OpenAPI document, `POST /whatsapp/webhooks`) through our
 * ingress, signed as Meta signs: every one is acknowledged, and every user message in them is kept with its type
 * (a kind we do not model is kept as `unsupported`, naming Meta's type). Four examples share one message id, so each
 * example goes to an account of its own (its `phone_number_id` the only thing changed): otherwise the later ones
 * would rightly be dropped as redeliveries.
 */
describe("messaging: Meta's published webhook examples through our ingress", () => {
  const w = useWhatsAppWorld();

  it('Meta publishes 16 inbound examples, 13 of them with a user message', () => {
    expect(examples).toHaveLength(16);
    const withMessages = examples.filter((e) => e.payload.entry.some((x) => x.changes.some((c) => c.value.messages)));
    expect(withMessages).toHaveLength(13);
  });

  it.each(examples.map((e, i) => [e.name, i] as const))('%s: acknowledged, its messages kept', async (_name, i) => {
    const example = structuredClone(examples[i].payload);
    const phoneNumberId = `10654035224${String(i).padStart(4, '0')}`;
    const account = await createAccount(w.t, w.org.id, { phoneNumberId, wabaId: example.entry[0].id });
    for (const change of example.entry.flatMap((e) => e.changes)) change.value.metadata.phone_number_id = phoneNumberId;

    // Meta's examples are what Meta sends, even where they fail its own schema (the group ones do).
    expect(await w.graph.sendWebhook(example, { published: true })).toBe(200);

    const sent = example.entry.flatMap((e) => e.changes.flatMap((c) => c.value.messages ?? []));
    const kept = (
      await w.t.db.query(
        'SELECT provider_message_id, direction, message_type, payload FROM messages WHERE account_id = $1',
        [account.id],
      )
    ).rows;
    expect(kept).toHaveLength(sent.length);
    for (const message of sent) {
      const modelled = (MESSAGE_KINDS as readonly string[]).includes(message.type) && message.type !== 'unsupported';
      const row = kept.find((r: { provider_message_id: string }) => r.provider_message_id === message.id);
      expect(row).toMatchObject({ direction: 'inbound', message_type: modelled ? message.type : 'unsupported' });
      if (!modelled) {
        expect(row.payload).toMatchObject({ providerType: message.type === 'unsupported' ? null : message.type });
      }
    }
  });
});
