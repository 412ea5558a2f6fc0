import { analysisPlanOf, analysisSchemaProblem, ANALYSIS_LIMITS, AnalysisPlan, finalAnalysis } from './analysis-plan';
import { recordedAnsweredBy } from './answered-by';
import { DEFAULT_VOICEMAIL_POLICY, effectiveVoicemailPolicy, voicemailPolicyOf } from './voicemail-policy';

const plan = (fields: Partial<AnalysisPlan> = {}): AnalysisPlan => ({
  summary: true,
  structuredDataSchema: null,
  successCriteria: null,
  ...fields,
});

const booking = {
  type: 'object',
  properties: { day: { type: 'string', enum: ['mon', 'tue'] }, seats: { type: 'integer' } },
  required: ['day'],
};

describe('call outcomes', () => {
  describe('answeredBy', () => {
    it('records what the platform found, nothing when it found nothing', () => {
      expect(recordedAnsweredBy('voicemail', true)).toBe('voicemail');
      expect(recordedAnsweredBy('human', true)).toBe('human');
      expect(recordedAnsweredBy(null, true)).toBeNull();
      expect(recordedAnsweredBy(undefined, false)).toBeNull();
    });

    it('cannot tell a person from a machine that was talked to when detection was off', () => {
      expect(recordedAnsweredBy('human', false)).toBe('unknown');
      expect(recordedAnsweredBy('voicemail', false)).toBe('voicemail');
      expect(recordedAnsweredBy('unknown', false)).toBe('unknown');
    });
  });

  describe('the voicemail policy', () => {
    it('fills the defaults in (detect, hang up, no message)', () => {
      expect(voicemailPolicyOf({})).toEqual({ detect: true, action: 'hang-up', message: null });
      expect(voicemailPolicyOf({ detect: false, action: 'leave-message', message: 'Call us back' })).toEqual({
        detect: false,
        action: 'leave-message',
        message: 'Call us back',
      });
    });

    it('applies the most specific policy set (campaign, case, assistant), else the default', () => {
      const campaign = { detect: false, action: 'hang-up' as const, message: null };
      const assistant = { detect: true, action: 'leave-message' as const, message: 'Hi' };
      expect(effectiveVoicemailPolicy(campaign, null, assistant)).toBe(campaign);
      expect(effectiveVoicemailPolicy(undefined, null, assistant)).toBe(assistant);
      expect(effectiveVoicemailPolicy(null, undefined)).toBe(DEFAULT_VOICEMAIL_POLICY);
    });
  });

  describe('the analysis plan', () => {
    it('takes a JSON Schema of an object within the bounds that compiles', () => {
      expect(analysisSchemaProblem(booking)).toBeNull();
      expect(analysisSchemaProblem({ type: 'object' })).toBeNull();
    });

    it.each([
      ['not an object', [], 'must be a JSON Schema object'],
      ['null', null, 'must be a JSON Schema object'],
      ['not of an object', { type: 'string' }, 'must describe an object (`"type": "object"`)'],
      ['properties not an object', { type: 'object', properties: [] }, 'properties must be an object'],
      [
        'too many properties',
        {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: ANALYSIS_LIMITS.schemaProperties + 1 }, (_, i) => [`p${i}`, { type: 'string' }]),
          ),
        },
        `must have at most ${ANALYSIS_LIMITS.schemaProperties} properties`,
      ],
      [
        'too large',
        { type: 'object', description: 'x'.repeat(ANALYSIS_LIMITS.schemaBytes) },
        `must be at most ${ANALYSIS_LIMITS.schemaBytes} bytes serialised as JSON`,
      ],
    ])('refuses a schema %s', (_case, schema, problem) => {
      expect(analysisSchemaProblem(schema)).toBe(problem);
    });

    it('refuses a schema that does not compile, saying why', () => {
      expect(analysisSchemaProblem({ type: 'object', properties: { a: { type: 'nope' } } })).toMatch(
        /^does not compile as JSON Schema: /,
      );
    });

    it('fills the defaults in (a summary, nothing else)', () => {
      expect(analysisPlanOf({})).toEqual(plan());
      expect(analysisPlanOf({ summary: false, structuredDataSchema: booking, successCriteria: 'Booked' })).toEqual(
        plan({ summary: false, structuredDataSchema: booking, successCriteria: 'Booked' }),
      );
    });
  });

  describe("a call's final analysis", () => {
    const produced = { summary: 'Booked a table', structuredData: { day: 'mon', seats: 2 }, success: true };

    it('keeps what the plan asked for: the summary only when asked, structured data only with a schema', () => {
      expect(finalAnalysis(plan({ structuredDataSchema: booking }), produced)).toEqual({
        analysis: produced,
        problem: null,
      });
      expect(finalAnalysis(plan({ summary: false }), produced)).toEqual({
        analysis: { summary: null, structuredData: null, success: true },
        problem: null,
      });
    });

    it('drops structured data that does not fit the schema, saying why', () => {
      const checked = finalAnalysis(plan({ structuredDataSchema: booking }), {
        ...produced,
        structuredData: { day: 'sun' },
      });
      expect(checked.analysis.structuredData).toBeNull();
      expect(checked.problem).toMatch(/day/);
    });

    it('is all nulls when the platform produced nothing', () => {
      expect(finalAnalysis(plan({ structuredDataSchema: booking }), null)).toEqual({
        analysis: { summary: null, structuredData: null, success: null },
        problem: null,
      });
    });

    it('checks against each schema it was given (one compiled validator per schema)', () => {
      const other = { type: 'object', properties: { day: { type: 'integer' } } };
      expect(finalAnalysis(plan({ structuredDataSchema: booking }), produced).problem).toBeNull();
      expect(finalAnalysis(plan({ structuredDataSchema: other }), produced).problem).not.toBeNull();
      expect(finalAnalysis(plan({ structuredDataSchema: booking }), produced).problem).toBeNull();
    });
  });
});
