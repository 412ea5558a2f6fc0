import {
  DEFAULT_FIRST_MESSAGE,
  DEFAULT_SYSTEM_PROMPT,
  MissingRequiredVariableError,
  ResolutionInput,
  render,
  RENDERED_LIMITS,
  RenderedTooLongError,
  resolveCall,
} from './call-resolution';

const kase = (over: Partial<NonNullable<ResolutionInput['case']>> = {}): NonNullable<ResolutionInput['case']> => ({
  firstMessage: 'Case hello',
  prompt: 'Case prompt',
  toolIds: ['tool-1'],
  variables: [],
  ...over,
});
const assistant = { firstMessage: 'Assistant hello', systemPrompt: 'Assistant prompt' };
const contact = { title: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550100', notes: null };

describe('resolveCall', () => {
  describe('first message and system prompt: request, case, assistant, default', () => {
    it('uses generic defaults and no tools with neither case nor first message', () => {
      expect(resolveCall({ request: {} })).toEqual({
        firstMessage: DEFAULT_FIRST_MESSAGE,
        systemPrompt: DEFAULT_SYSTEM_PROMPT,
        toolIds: [],
        tools: [],
        integrationToolIds: [],
        variableValues: null,
        voicemail: { detect: true, action: 'hang-up', message: null },
        analysisPlan: null,
        keyterms: null,
      });
    });

    it('takes the most specific voicemail policy (campaign, case, assistant) and renders its message', () => {
      const policy = (message: string) => ({ detect: true, action: 'leave-message' as const, message });
      const assistant = { firstMessage: null, systemPrompt: null, voicemail: policy('A {{name}}') };
      const withCase = { ...kase(), voicemail: policy('C {{name}}') };
      const request = { variableValues: { name: 'Ada' } };
      expect(resolveCall({ request, assistant }).voicemail.message).toBe('A Ada');
      expect(resolveCall({ request, assistant, case: withCase }).voicemail.message).toBe('C Ada');
      const campaignVoicemail = policy('K {{name}}');
      expect(resolveCall({ request, assistant, case: withCase, campaignVoicemail }).voicemail.message).toBe('K Ada');
      const tooLong = { ...withCase, voicemail: policy(`${'x'.repeat(998)}{{name}}`) };
      expect(() => resolveCall({ request, case: tooLong })).toThrow(RenderedTooLongError);
    });

    it('takes first message, prompt and tools from the case with only a case', () => {
      const r = resolveCall({ request: {}, case: kase() });
      expect(r).toMatchObject({ firstMessage: 'Case hello', systemPrompt: 'Case prompt', toolIds: ['tool-1'] });
    });

    it('uses the generic prompt and no tools with only a first message', () => {
      const r = resolveCall({ request: { firstMessage: 'Mine' } });
      expect(r).toMatchObject({ firstMessage: 'Mine', systemPrompt: DEFAULT_SYSTEM_PROMPT, toolIds: [] });
    });

    it('combines the request first message with the case prompt and tools', () => {
      const r = resolveCall({ request: { firstMessage: 'Mine' }, case: kase(), assistant });
      expect(r).toMatchObject({ firstMessage: 'Mine', systemPrompt: 'Case prompt', toolIds: ['tool-1'] });
    });

    it.each([null, ''])('falls back to the assistant when the case first message is %p', (firstMessage) => {
      const r = resolveCall({ request: {}, case: kase({ firstMessage }), assistant });
      expect(r).toMatchObject({ firstMessage: 'Assistant hello', systemPrompt: 'Case prompt' });
    });

    it('uses the assistant texts (but never tools) without a case', () => {
      const r = resolveCall({ request: {}, assistant });
      expect(r).toMatchObject({ firstMessage: 'Assistant hello', systemPrompt: 'Assistant prompt', toolIds: [] });
    });

    it('uses generic defaults when the assistant has no texts', () => {
      const r = resolveCall({ request: {}, assistant: { firstMessage: null, systemPrompt: null } });
      expect(r).toMatchObject({ firstMessage: DEFAULT_FIRST_MESSAGE, systemPrompt: DEFAULT_SYSTEM_PROMPT });
    });
  });

  describe('variables: variableValues, contact, case default', () => {
    const withVars = kase({
      firstMessage: 'Hi {{name}}, about {{topic}}',
      prompt: 'Mail {{email}} phone {{ phone }} notes [{{notes}}] code {{code}}',
      variables: [
        { name: 'topic', source: 'custom', defaultValue: 'your order' },
        { name: 'code', source: 'custom' },
      ],
    });

    it('prefers variableValues over contact data and defaults', () => {
      const r = resolveCall({
        request: { variableValues: { name: 'Bob', topic: 'billing' } },
        contact,
        case: withVars,
      });
      expect(r.firstMessage).toBe('Hi Bob, about billing');
    });

    it('reads name, email and phone from the contact, then the case default', () => {
      const r = resolveCall({ request: {}, contact, case: withVars });
      expect(r.firstMessage).toBe('Hi Ada Lovelace, about your order');
      expect(r.systemPrompt).toBe('Mail ada@example.com phone +14155550100 notes [] code ');
      expect(r.variableValues).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+14155550100',
        topic: 'your order',
      });
    });

    it('renders an unresolved placeholder as empty text', () => {
      expect(resolveCall({ request: { firstMessage: 'Hi {{name}}!' } }).firstMessage).toBe('Hi !');
    });

    it('resolves a case variable with a contact.* source from that contact field', () => {
      const r = resolveCall({
        request: {},
        contact,
        case: kase({ firstMessage: 'For {{who}}', variables: [{ name: 'who', source: 'contact.email' }] }),
      });
      expect(r.firstMessage).toBe('For ada@example.com');
    });

    it('uses the default when a contact.* source is empty', () => {
      const r = resolveCall({
        request: {},
        contact,
        case: kase({
          firstMessage: '{{n}}',
          variables: [{ name: 'n', source: 'contact.notes', defaultValue: 'none' }],
        }),
      });
      expect(r.firstMessage).toBe('none');
    });

    it('rejects a required variable that nothing resolves, naming it', () => {
      const input = {
        request: {},
        contact,
        case: kase({ variables: [{ name: 'account', source: 'custom' as const, required: true }] }),
      };
      expect(() => resolveCall(input)).toThrow(MissingRequiredVariableError);
      expect(() => resolveCall(input)).toThrow(/account/);
    });

    it('accepts a required variable supplied by variableValues', () => {
      const r = resolveCall({
        request: { variableValues: { account: 'A-1' } },
        case: kase({ prompt: 'Acct {{account}}', variables: [{ name: 'account', source: 'custom', required: true }] }),
      });
      expect(r.systemPrompt).toBe('Acct A-1');
    });
  });

  it('render leaves text without placeholders untouched and never evaluates values as patterns', () => {
    expect(render('firstMessage', 'plain', {})).toBe('plain');
    expect(render('firstMessage', '{{a}}', { a: '$& {{b}}' })).toBe('$& {{b}}');
  });

  it('a rendered first message of 1,000 characters is accepted, 1,001 refused', () => {
    const request = (n: number) => ({ request: { firstMessage: 'x{{a}}', variableValues: { a: 'y'.repeat(n - 1) } } });
    expect(resolveCall(request(RENDERED_LIMITS.firstMessage)).firstMessage).toHaveLength(1000);
    expect(() => resolveCall(request(RENDERED_LIMITS.firstMessage + 1))).toThrow(RenderedTooLongError);
  });

  it('a rendered system prompt of 50,000 characters is accepted, 50,001 refused', () => {
    const prompt = '{{a}}'.repeat(2000);
    const caseOf = (n: number) => ({
      request: { variableValues: { a: 'z'.repeat(n) } },
      case: { firstMessage: null, prompt, toolIds: [], variables: [] },
    });
    expect(resolveCall(caseOf(25)).systemPrompt).toHaveLength(50_000);
    expect(() => resolveCall(caseOf(26))).toThrow(
      expect.objectContaining({ field: 'systemPrompt' }) as unknown as Error,
    );
  });
});
