import type { Vapi } from '@vapi-ai/server-sdk';
import type { AnalysisPlan, CallAnalysis } from '../../../call-outcomes/analysis-plan';
import type { VoicemailPolicy } from '../../../call-outcomes/voicemail-policy';
import { escapeLiquid } from '../../vapi/vapi-liquid';

/**
 * Our voicemail policy as Vapi's assistant fields (docs/providers.md): detection on is Vapi's own detector
 * (`voicemailDetection: { provider: 'vapi' }`), off is `'off'`; a message to leave is `voicemailMessage`, said
 * once the machine's beep is heard. Without one Vapi hangs up on the machine.
 */
export function vapiVoicemail(
  policy: VoicemailPolicy,
): Pick<Vapi.CreateAssistantDto, 'voicemailDetection' | 'voicemailMessage'> {
  if (!policy.detect) return { voicemailDetection: 'off' };
  return {
    voicemailDetection: { provider: 'vapi' },
    // Vapi renders the message as Liquid like the first message: escaped the same way (it may hold a contact's data).
    ...(policy.action === 'leave-message' && policy.message !== null
      ? { voicemailMessage: escapeLiquid(policy.message) }
      : {}),
  };
}

const JSON_SCHEMA_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const JSON_SCHEMA_FORMATS = new Set<string>([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * A customer's JSON Schema in the subset Vapi's `JsonSchema` takes (type, items, properties, description,
 * pattern, format, required, string enums, title); the rest (examples, bounds, ...) is left out, since Vapi
 * refuses unknown properties. The full schema still validates what Vapi extracts before it is stored.
 */
export function vapiJsonSchema(schema: Record<string, unknown>): Vapi.JsonSchema {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const out: Vapi.JsonSchema = {
    type: JSON_SCHEMA_TYPES.has(type as string) ? (type as Vapi.JsonSchemaType) : 'string',
  };
  if (typeof schema.description === 'string') out.description = schema.description;
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.pattern === 'string') out.pattern = schema.pattern;
  if (typeof schema.format === 'string' && JSON_SCHEMA_FORMATS.has(schema.format)) {
    out.format = schema.format as Vapi.JsonSchemaFormat;
  }
  if (Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string')) {
    out.required = schema.required as string[];
  }
  if (Array.isArray(schema.enum) && schema.enum.every((e) => typeof e === 'string')) out.enum = schema.enum as string[];
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    out.items = vapiJsonSchema(schema.items as Record<string, unknown>);
  }
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(([k, v]) => [
        k,
        vapiJsonSchema(v ?? {}),
      ]),
    );
  }
  return out;
}

/** A case's analysis plan as Vapi's `analysisPlan`: summary on or off, structured data, pass/fail success. */
export function vapiAnalysisPlan(plan: AnalysisPlan): Vapi.AnalysisPlan {
  return {
    summaryPlan: { enabled: plan.summary },
    structuredDataPlan: plan.structuredDataSchema
      ? { enabled: true, schema: vapiJsonSchema(plan.structuredDataSchema as Record<string, unknown>) }
      : { enabled: false },
    successEvaluationPlan: plan.successCriteria
      ? {
          enabled: true,
          rubric: 'PassFail',
          messages: [
            {
              role: 'system',
              content: `Success criteria: ${plan.successCriteria}\nAnswer true if the call met them, else false.`,
            },
          ],
        }
      : { enabled: false },
  };
}

/** Vapi's `analysis` in our terms; a PassFail evaluation is the string "true" or "false" (anything else: null). */
export function analysisFromVapi(analysis: Vapi.Analysis | undefined): Partial<CallAnalysis> | null {
  if (!analysis) return null;
  const verdict = analysis.successEvaluation?.trim().toLowerCase();
  return {
    summary: typeof analysis.summary === 'string' && analysis.summary ? analysis.summary : null,
    structuredData: analysis.structuredData ?? null,
    success: verdict === 'true' ? true : verdict === 'false' ? false : null,
  };
}
