import { captured as createCall } from './fixtures/create-call.fixture';
import { VapiSchema } from './vapi-schema';

describe("the fake Vapi's schema check (Vapi's SDK declarations)", () => {
  const schema = VapiSchema.get();

  it('accepts the body our adapter sends', () => {
    expect(schema.validate('CreateCallDto', createCall)).toEqual([]);
  });

  it('refuses unknown properties at any depth, as Vapi does', () => {
    expect(schema.validate('CreateCallDto', { ...createCall, surprise: 1 })).toEqual([
      'property surprise should not exist',
    ]);
    const nested = {
      ...createCall,
      assistant: { ...createCall.assistant, voice: { provider: 'vapi', voiceId: 'Elliot', pitch: 2 } },
    };
    expect(schema.validate('CreateCallDto', nested)).toEqual(['assistant.voice.property pitch should not exist']);
  });

  it('refuses wrong value types and literals, and the object form of backoffPlan.type', () => {
    expect(schema.validate('CreateCallDto', { ...createCall, customer: { number: 5 } })).toEqual([
      'customer.number must be a string',
    ]);
    expect(
      schema.validate('Server', { url: 'https://x', backoffPlan: { type: {}, maxRetries: 1, baseDelaySeconds: 1 } }),
    ).toEqual(['backoffPlan.type must be one of the following values: fixed, exponential']);
    expect(
      schema.validate('Server', { url: 'https://x', backoffPlan: { type: 'exponential', maxRetries: 1 } }),
    ).toEqual(['backoffPlan.baseDelaySeconds should not be null or undefined']);
  });
});
