import { readInbound } from './whatsapp-inbound';

const at = '1795600000';
const value = { contacts: [{ wa_id: '14155550123', user_id: 'US.1', profile: { name: 'Ann' } }] };

describe('readInbound (a WhatsApp user message in our terms)', () => {
  it('takes the number as E.164 and the name and business-scoped id from contacts', () => {
    const read = readInbound(value, {
      id: 'wamid.1',
      from: '14155550123',
      timestamp: at,
      type: 'text',
      text: { body: 'hi' },
    });
    expect(read).toMatchObject({
      from: '+14155550123',
      userId: 'US.1',
      name: 'Ann',
      messageType: 'text',
      text: 'hi',
      payload: null,
      timestamp: new Date(Number(at) * 1000),
    });
  });

  it('keeps a user named only by business-scoped id, and drops one named neither way or without an id', () => {
    expect(readInbound({}, { id: 'wamid.2', from_user_id: 'US.9', type: 'text', text: { body: 'x' } })).toMatchObject({
      from: '',
      userId: 'US.9',
    });
    expect(readInbound({}, { id: 'wamid.3', type: 'text', text: { body: 'x' } })).toBeNull();
    expect(readInbound(value, { from: '14155550123', type: 'text' })).toBeNull();
    expect(readInbound({}, { id: 'wamid.4', from: 'not-a-number', type: 'text' })).toBeNull();
  });

  it('an unknown kind, or a location without coordinates, is kept as unsupported', () => {
    expect(readInbound(value, { id: 'w5', from: '14155550123', type: 'order' })).toMatchObject({
      messageType: 'unsupported',
      payload: { kind: 'unsupported', providerType: 'order' },
    });
    expect(
      readInbound(value, { id: 'w6', from: '14155550123', type: 'location', location: { name: 'x' } }),
    ).toMatchObject({
      messageType: 'unsupported',
      payload: { kind: 'unsupported', providerType: 'location' },
    });
  });

  it('bounds shared contacts: at most 20, each with at most 20 phones', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      name: { formatted_name: `P${i}` },
      phones: Array.from({ length: 30 }, (__, j) => ({ phone: `+1415555${String(j).padStart(4, '0')}` })),
    }));
    const read = readInbound(value, { id: 'w7', from: '14155550123', type: 'contacts', contacts: many });
    const payload = read?.payload as { contacts: Array<{ phones: string[] }> };
    expect(payload.contacts).toHaveLength(20);
    expect(payload.contacts[0].phones).toHaveLength(20);
  });

  it("reads a system message (Meta's example and the older names) as the user's new number or id", () => {
    const body = 'User Sheena Nelson changed from 16505551234 to 12195555358';
    const system = (fields: Record<string, string>) =>
      readInbound(
        {},
        { id: 'wamid.s', from: '16505551234', timestamp: at, type: 'system', system: { body, ...fields } },
      );
    expect(system({ wa_id: '12195555358', type: 'user_changed_number' })).toMatchObject({
      from: '+16505551234',
      messageType: 'system',
      text: body,
      payload: { kind: 'system', systemType: 'user_changed_number', newPhone: '+12195555358', newUserId: null },
    });
    expect(system({ new_wa_id: '12195555358', type: 'customer_changed_number' })?.payload).toMatchObject({
      newPhone: '+12195555358',
    });
    expect(system({ user_id: 'US.2', type: 'user_changed_user_id' })?.payload).toMatchObject({
      newPhone: null,
      newUserId: 'US.2',
    });
  });
});
