import { captured as assistantRequestResponse } from './fixtures/assistant-request-response.fixture';
import { captured as createCallOutcomes } from './fixtures/create-call-outcomes.fixture';
import { captured as createCallTools } from './fixtures/create-call-tools.fixture';
import { captured as createCall } from './fixtures/create-call.fixture';
import { captured as createChat } from './fixtures/create-chat.fixture';
import { VapiOpenApi } from './vapi-openapi';
import { VapiSchema } from './vapi-schema';

describe("the fake Vapi's second check (Vapi's own OpenAPI document, repaired)", () => {
  const document = VapiOpenApi.get();
  const sdk = VapiSchema.get();

  it('accepts every body our adapter was captured sending', () => {
    expect(document.validate('CreateCallDTO', createCall)).toEqual([]);
    expect(document.validate('CreateCallDTO', createCallTools)).toEqual([]);
    expect(document.validate('CreateCallDTO', createCallOutcomes)).toEqual([]);
    expect(document.validate('CreateChatDTO', createChat)).toEqual([]);
    expect(document.validate('ServerMessageResponseAssistantRequest', assistantRequestResponse)).toEqual([]);
    expect(
      document.validate('ServerMessageResponseToolCalls', {
        results: [{ toolCallId: 'c1', name: 'lookup_order', result: 'ok' }],
      }),
    ).toEqual([]);
  });

  it('refuses what the SDK lets through: a bound, a pattern, an unknown property of an answer', () => {
    const longName = { ...createCall, assistant: { ...createCall.assistant, name: 'x'.repeat(41) } };
    expect(sdk.validate('CreateCallDto', longName)).toEqual([]);
    expect(document.validate('CreateCallDTO', longName)).toEqual([
      'assistant.name must NOT have more than 40 characters',
    ]);

    const tools = createCallTools.assistant!.model!.tools! as Array<Record<string, any>>;
    const badName = {
      ...createCallTools,
      assistant: {
        ...createCallTools.assistant,
        model: {
          ...createCallTools.assistant!.model,
          tools: [{ ...tools[0], function: { ...tools[0].function, name: 'look up order' } }, ...tools.slice(1)],
        },
      },
    };
    expect(sdk.validate('CreateCallDto', badName)).toEqual([]);
    expect(document.validate('CreateCallDTO', badName).join()).toContain('must match pattern "^[a-zA-Z0-9_-]{1,64}$"');

    expect(document.validate('ServerMessageResponseToolCalls', { results: [], surprise: 1 })).toEqual([
      'property surprise should not exist',
    ]);
  });

  it('takes the documented values its defects refused (string enums typed object, status codes typed object)', () => {
    const server = (backoffPlan: unknown) => ({
      ...createCall,
      assistant: { ...createCall.assistant, server: { url: 'https://x.test/a', backoffPlan } },
    });
    expect(
      document.validate(
        'CreateCallDTO',
        server({ type: 'fixed', maxRetries: 1, baseDelaySeconds: 1, excludedStatusCodes: [400, 401] }),
      ),
    ).toEqual([]);
    expect(
      document.validate('CreateCallDTO', server({ type: 'sometimes', maxRetries: 1, baseDelaySeconds: 1 })).join(),
    ).toContain('backoffPlan.type must be equal to one of the allowed values');
  });
});
