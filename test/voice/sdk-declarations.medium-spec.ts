import { DeclarationSchema } from '../support/declaration-schema';
import { captured as createCall } from './fixtures/create-call.fixture';
import { VapiSchema } from './vapi-schema';

/**
 * The fakes judge bodies by a JSON description of the SDKs' declarations, written once per run, where each test file
 * used to build a TypeScript program over the SDK and walk the compiler's types. Each refusal below is the one that
 * walk gave for the same body, word for word: the description refuses what the program refused.
 */
describe("the SDKs' declarations read from their JSON description", () => {
  const assistant = createCall.assistant as Record<string, any>;
  const model = assistant.model as Record<string, unknown>;

  it.each<[string, string, unknown, string[]]>([
    ['an unknown property', 'CreateCallDto', { ...createCall, surprise: 1 }, ['property surprise should not exist']],
    [
      'a number for a string',
      'CreateCallDto',
      { ...createCall, customer: { number: 5 } },
      ['customer.number must be a string'],
    ],
    ['null for an object', 'CreateCallDto', { ...createCall, customer: null }, ['customer must be an object']],
    ['a string for an object', 'CreateCallDto', { ...createCall, assistant: 'x' }, ['assistant must be an object']],
    ['an array for the body', 'CreateCallDto', [], ['body must be an object']],
    [
      'an object for an array',
      'CreateCallDto',
      { ...createCall, assistant: { ...assistant, model: { ...model, messages: {} } } },
      ['assistant.model.messages must be an array'],
    ],
    [
      'a string for a number, in a union member',
      'CreateCallDto',
      { ...createCall, assistant: { ...assistant, model: { ...model, temperature: '0.3' } } },
      ['assistant.model.temperature must be a number'],
    ],
    [
      'an unknown property of an array item',
      'CreateCallDto',
      {
        ...createCall,
        assistant: { ...assistant, model: { ...model, messages: [{ role: 'system', content: 'x', extra: 1 }] } },
      },
      ['assistant.model.messages[0].property extra should not exist'],
    ],
    [
      'anything in a record of unknown values, and an unknown property beside it',
      'CreateCallDto',
      {
        ...createCall,
        assistant: { ...assistant, metadata: { any: { thing: [1] } }, backgroundDenoisingEnabled: 'yes' },
      },
      ['assistant.property backgroundDenoisingEnabled should not exist'],
    ],
    [
      'a required property missing, beside the correction',
      'Server',
      { url: 'https://x', backoffPlan: { type: 'fixed', maxRetries: 1 } },
      ['backoffPlan.baseDelaySeconds should not be null or undefined'],
    ],
    [
      'wrong types of a string and a number, a record of strings judged by its values',
      'Server',
      { url: 1, timeoutSeconds: 'x', headers: { a: 1 } },
      ['url must be a string', 'timeoutSeconds must be a number'],
    ],
    [
      'a boolean literal',
      'ClientInboundMessageMessage',
      { type: 'say', content: 1, endCallAfterSpoken: 'no' },
      ['content must be a string', 'endCallAfterSpoken must be false'],
    ],
  ])('Vapi: %s', (_case, type, body, refusals) => {
    expect(VapiSchema.get().validate(type, body)).toEqual(refusals);
  });

  it.each<[string, string, unknown, string[]]>([
    [
      'a nullable string given a number, and an unknown property',
      'LlmCreateParams',
      { general_prompt: 1, begin_message: 'hi', surprise: true },
      ['general_prompt must be null', 'property surprise should not exist'],
    ],
    [
      'a nullable array with an unknown tool',
      'LlmCreateParams',
      { general_tools: [{ type: 'nope' }] },
      ['general_tools must be null'],
    ],
    [
      'a required property missing',
      'AgentCreateParams',
      { voice_id: 'v' },
      ['response_engine should not be null or undefined'],
    ],
    [
      'a record of strings given a number',
      'CallCreatePhoneCallParams',
      { from_number: '+1', to_number: '+2', retell_llm_dynamic_variables: { a: 1 }, metadata: { a: 1 } },
      ['retell_llm_dynamic_variables.a must be a string'],
    ],
    [
      'a number for a string, and an unknown nested property',
      'CallListParams',
      { limit: '5', filter_criteria: { agent_id: 'a' } },
      ['limit must be a number', 'filter_criteria.property agent_id should not exist'],
    ],
  ])('Retell: %s', (_case, type, body, refusals) => {
    expect(new DeclarationSchema('Retell').validate(type, body)).toEqual(refusals);
  });

  it('accepts the body our adapter sends, and names a type the SDK does not have', () => {
    expect(VapiSchema.get().validate('CreateCallDto', createCall)).toEqual([]);
    expect(() => VapiSchema.get().validate('NoSuchDto', {})).toThrow("Vapi's SDK has no type NoSuchDto");
  });
});
