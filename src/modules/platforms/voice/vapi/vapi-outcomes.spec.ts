import type { Vapi } from '@vapi-ai/server-sdk';
import { analysisFromVapi, vapiAnalysisPlan, vapiJsonSchema, vapiVoicemail } from './vapi-outcomes';

describe('our outcomes in Vapi terms', () => {
  describe('the voicemail policy', () => {
    it("is Vapi's detector, with the message to leave when there is one", () => {
      expect(vapiVoicemail({ detect: true, action: 'leave-message', message: 'Call us back' })).toEqual({
        voicemailDetection: { provider: 'vapi' },
        voicemailMessage: 'Call us back',
      });
      expect(vapiVoicemail({ detect: true, action: 'hang-up', message: 'ignored' })).toEqual({
        voicemailDetection: { provider: 'vapi' },
      });
      expect(vapiVoicemail({ detect: true, action: 'leave-message', message: null })).toEqual({
        voicemailDetection: { provider: 'vapi' },
      });
    });

    it('leaves a message Vapi prints as written: Liquid in it is escaped as in the first message', () => {
      const message = 'Hi {% for i in (1..100000) %}x{% endfor %}, call {{ number }}';
      expect(vapiVoicemail({ detect: true, action: 'leave-message', message }).voicemailMessage).toBe(
        'Hi {{ "{%" }} for i in (1..100000) %}x{{ "{%" }} endfor %}, call {{ "{{" }} number }}',
      );
    });

    it('is detection off when the policy does not detect', () => {
      expect(vapiVoicemail({ detect: false, action: 'leave-message', message: 'x' })).toEqual({
        voicemailDetection: 'off',
      });
    });
  });

  describe('a JSON Schema', () => {
    it('keeps the subset Vapi takes, recursively, and leaves the rest out', () => {
      expect(
        vapiJsonSchema({
          type: 'object',
          title: 'Booking',
          description: 'What was booked',
          required: ['day'],
          examples: [{ day: 'mon' }],
          properties: {
            day: { type: 'string', enum: ['mon', 'tue'], pattern: '^[a-z]+$', minLength: 3 },
            at: { type: 'string', format: 'date-time' },
            phone: { type: 'string', format: 'phone' },
            seats: { type: ['integer', 'null'], minimum: 1 },
            tags: { type: 'array', items: { type: 'string' } },
          },
        }),
      ).toEqual({
        type: 'object',
        title: 'Booking',
        description: 'What was booked',
        required: ['day'],
        properties: {
          day: { type: 'string', enum: ['mon', 'tue'], pattern: '^[a-z]+$' },
          at: { type: 'string', format: 'date-time' },
          phone: { type: 'string' },
          seats: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      });
    });

    it('falls back to a string for a type Vapi does not know or none, and drops lists it cannot take', () => {
      expect(vapiJsonSchema({ type: 'null', enum: [1, 2], required: [1], items: [{ type: 'string' }] })).toEqual({
        type: 'string',
      });
      expect(vapiJsonSchema({ properties: { a: null } })).toEqual({
        type: 'string',
        properties: { a: { type: 'string' } },
      });
    });
  });

  describe('the analysis plan', () => {
    it('asks for what the case asks for: summary, structured data against the schema, a pass/fail verdict', () => {
      const plan = vapiAnalysisPlan({
        summary: true,
        structuredDataSchema: { type: 'object', properties: { day: { type: 'string' } } },
        successCriteria: 'A table was booked',
      });
      expect(plan.summaryPlan).toEqual({ enabled: true });
      expect(plan.structuredDataPlan).toEqual({
        enabled: true,
        schema: { type: 'object', properties: { day: { type: 'string' } } },
      });
      expect(plan.successEvaluationPlan).toMatchObject({ enabled: true, rubric: 'PassFail' });
      expect(plan.successEvaluationPlan!.messages![0]).toMatchObject({ role: 'system' });
      expect(JSON.stringify(plan.successEvaluationPlan!.messages)).toContain('A table was booked');
    });

    it('turns off what the case does not ask for', () => {
      expect(vapiAnalysisPlan({ summary: false, structuredDataSchema: null, successCriteria: null })).toEqual({
        summaryPlan: { enabled: false },
        structuredDataPlan: { enabled: false },
        successEvaluationPlan: { enabled: false },
      });
    });
  });

  describe("Vapi's analysis", () => {
    it('reads a PassFail verdict, whatever its case and spacing, and nothing else as one', () => {
      const verdict = (successEvaluation: string | undefined) =>
        analysisFromVapi({ successEvaluation } as Vapi.Analysis)!.success;
      expect([verdict('true'), verdict(' FALSE '), verdict('8/10'), verdict(undefined)]).toEqual([
        true,
        false,
        null,
        null,
      ]);
    });

    it('keeps a summary and structured data, and takes an empty summary for none', () => {
      expect(analysisFromVapi({ summary: 'Booked', structuredData: { day: 'mon' } } as Vapi.Analysis)).toEqual({
        summary: 'Booked',
        structuredData: { day: 'mon' },
        success: null,
      });
      expect(analysisFromVapi({ summary: '' } as Vapi.Analysis)).toEqual({
        summary: null,
        structuredData: null,
        success: null,
      });
    });

    it('is nothing when Vapi sent no analysis', () => {
      expect(analysisFromVapi(undefined)).toBeNull();
    });
  });
});
