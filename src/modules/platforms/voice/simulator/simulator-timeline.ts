import type { TranscriptMessage } from '../../../calls/call.entity';
import type { EndOfCallReport, PlatformEvent } from '../../../calls/voice/voice-provider';
import type { AnalysisPlan, CallAnalysis } from '../../../call-outcomes/analysis-plan';
import { exampleFromSchema } from '../../../call-outcomes/schema-example';
import { DEFAULT_VOICEMAIL_POLICY, VoicemailPolicy } from '../../../call-outcomes/voicemail-policy';
import { CallTool, DEFAULT_TRANSFER_MESSAGE } from '../../../tools/call-tools';

/**
 * The simulator's post-call analysis (docs/tools.md): a fixed summary naming the number, structured data built
 * from the plan's schema, success when a person answered. Null without a plan.
 */
export function simulatedAnalysis(
  plan: AnalysisPlan | null | undefined,
  callTo: string,
  answered: boolean,
): Partial<CallAnalysis> | null {
  if (!plan) return null;
  return {
    summary: `Simulated call to ${callTo}: ${answered ? 'the customer answered and talked with the assistant' : 'an answering machine picked up'}.`,
    structuredData: plan.structuredDataSchema
      ? exampleFromSchema(plan.structuredDataSchema as Record<string, unknown>)
      : null,
    success: answered,
  };
}

export interface TimelineStep {
  /** Milliseconds after the call was placed. */
  at: number;
  event: PlatformEvent;
}

export interface TimelineInput {
  callId: string;
  providerCallId: string;
  callTo: string;
  systemPrompt: string;
  firstMessage: string;
  placedAt: number;
  ringMs: number;
  callMs: number;
  /** Forces the outcome (inbound simulated calls are always answered); by default the number decides. */
  outcome?: Outcome;
  /** The call's voicemail policy (its message rendered); the default when absent. */
  voicemail?: VoicemailPolicy | null;
  /** The call's post-call analysis plan, if its case has one. */
  analysisPlan?: AnalysisPlan | null;
  /** The tools the call carries (its case's): function tools are called, a transfer may be made. */
  tools?: CallTool[];
}

export type Outcome = 'answered' | 'voicemail' | 'not-answered' | 'error';
/** A machine answered a call placed without answering-machine detection. */
type PlayedOutcome = Outcome | 'machine-undetected';

/** A number ending in this digit, on a call carrying a transfer tool, is transferred (docs/contracts/simulator.md). */
const TRANSFER_DIGIT = '6';

/** docs/contracts/simulator.md: the outcome is chosen by the last digit of the number called. */
export function simulatedOutcome(callTo: string): Outcome {
  const digit = Number(callTo.slice(-1));
  if (digit === 7) return 'voicemail';
  if (digit === 8) return 'not-answered';
  if (digit === 9) return 'error';
  return 'answered';
}

const CONVERSATION: Array<Pick<TranscriptMessage, 'role' | 'content'>> = [
  { role: 'user', content: 'Hi, yes, this is a good time.' },
  { role: 'assistant', content: 'Great, thank you. I will keep it brief.' },
  { role: 'user', content: 'Sounds good, thanks. Bye!' },
];

/**
 * The simulated call as a list of timed platform events (docs/contracts/simulator.md). Pure, so each outcome is testable;
 * the simulator turns each step into a delayed job, so the timeline survives restarts and spans processes.
 */
export function simulatorTimeline(input: TimelineInput): TimelineStep[] {
  const { callId, providerCallId, ringMs, callMs, placedAt } = input;
  const base = { callId, providerCallId };
  const status = (at: number, s: 'ringing' | 'in-progress'): TimelineStep => ({
    at,
    event: { ...base, kind: 'status', status: s },
  });
  const line = (at: number, m: Pick<TranscriptMessage, 'role' | 'content'>): TranscriptMessage => ({
    ...m,
    timestamp: placedAt + at,
  });
  const end = (at: number, report: Omit<EndOfCallReport, 'recordingUrl'>, recorded: boolean): TimelineStep => ({
    at,
    event: {
      ...base,
      kind: 'end-of-call',
      report: {
        ...report,
        recordingUrl: recorded ? `https://recordings.simulator.invalid/${providerCallId}.mp3` : null,
      },
    },
  });
  const opening = [
    line(ringMs, { role: 'system', content: input.systemPrompt }),
    line(ringMs, { role: 'assistant', content: input.firstMessage }),
  ];
  const conversation = (at: number, messages: TranscriptMessage[]): TimelineStep => ({
    at,
    event: { ...base, kind: 'conversation', messages },
  });

  const voicemail = input.voicemail ?? DEFAULT_VOICEMAIL_POLICY;
  const analysis = (answered: boolean) => simulatedAnalysis(input.analysisPlan, input.callTo, answered);
  let outcome: PlayedOutcome = input.outcome ?? simulatedOutcome(input.callTo);
  // Without detection a machine is talked to like a person: the call cannot tell them apart (docs/tools.md).
  if (outcome === 'voicemail' && !voicemail.detect) outcome = 'machine-undetected';

  switch (outcome) {
    case 'machine-undetected': {
      const talk = Math.round(callMs / 4);
      return [
        status(0, 'ringing'),
        status(ringMs, 'in-progress'),
        conversation(ringMs, opening),
        end(
          ringMs + talk,
          {
            failed: false,
            endedReason: 'customer-ended-call',
            resultStatus: 'Answered',
            durationSeconds: talk / 1000,
            transcript: opening,
            answeredBy: 'human',
            analysis: analysis(true),
          },
          true,
        ),
      ];
    }
    case 'answered': {
      const turns = CONVERSATION.map((m, i) =>
        line(ringMs + Math.round(((i + 1) * callMs) / (CONVERSATION.length + 1)), m),
      );
      const afterFirstTurn = turns[0].timestamp! - placedAt;
      const tools = input.tools ?? [];
      // Each function tool once, right after the first user turn, with arguments a model would fill in.
      const functions = tools.filter((t) => t.type === 'function');
      const toolCalls: TimelineStep[] = functions.length
        ? [
            {
              at: afterFirstTurn,
              event: {
                ...base,
                kind: 'tool-calls',
                invocations: functions.map((t, i) => ({
                  toolCallId: `${providerCallId}-tool-${i}`,
                  name: t.name!,
                  arguments: exampleFromSchema(t.parameters as Record<string, unknown> | null),
                })),
              },
            },
          ]
        : [];
      const transfer = input.callTo.endsWith(TRANSFER_DIGIT) ? tools.find((t) => t.type === 'transfer') : undefined;
      const destination = transfer?.destinations?.[0];
      if (destination) {
        // Forwarded after the first user turn: a warm transfer says its message first (docs/tools.md).
        const said =
          destination.mode === 'warm'
            ? [line(afterFirstTurn, { role: 'assistant', content: destination.message ?? DEFAULT_TRANSFER_MESSAGE })]
            : [];
        const heard = [...opening, turns[0], ...said];
        const handOver = afterFirstTurn + Math.round(callMs / (CONVERSATION.length + 1) / 2);
        return [
          status(0, 'ringing'),
          status(ringMs, 'in-progress'),
          conversation(ringMs, opening),
          conversation(afterFirstTurn, heard),
          ...toolCalls,
          { at: afterFirstTurn, event: { ...base, kind: 'status', status: 'forwarding' } },
          end(
            handOver,
            {
              failed: false,
              endedReason: 'assistant-forwarded-call',
              resultStatus: 'Answered',
              durationSeconds: (handOver - ringMs) / 1000,
              transcript: heard,
              answeredBy: 'human',
              analysis: analysis(true),
              transfer: { to: destination.number, mode: destination.mode, status: 'completed' },
            },
            true,
          ),
        ];
      }
      const growing = turns.map((t, i) =>
        conversation(t.timestamp! - placedAt, [...opening, ...turns.slice(0, i + 1)]),
      );
      const full = [...opening, ...turns];
      return [
        status(0, 'ringing'),
        status(ringMs, 'in-progress'),
        conversation(ringMs, opening),
        growing[0],
        ...toolCalls,
        ...growing.slice(1),
        end(
          ringMs + callMs,
          {
            failed: false,
            endedReason: 'customer-ended-call',
            resultStatus: 'Answered',
            durationSeconds: callMs / 1000,
            transcript: full,
            answeredBy: 'human',
            analysis: analysis(true),
          },
          true,
        ),
      ];
    }
    case 'voicemail': {
      // The machine is detected while the first message plays (docs/tools.md): the call hangs up, or says the
      // voicemail message after the beep, which is then the last assistant line.
      const talk = Math.round(callMs / 4);
      const message = voicemail.action === 'leave-message' ? voicemail.message : null;
      const heard = message === null ? opening : [...opening, line(ringMs, { role: 'assistant', content: message })];
      return [
        status(0, 'ringing'),
        status(ringMs, 'in-progress'),
        conversation(ringMs, heard),
        end(
          ringMs + talk,
          {
            failed: false,
            endedReason: 'voicemail-reached',
            resultStatus: 'Voicemail',
            durationSeconds: talk / 1000,
            transcript: heard,
            answeredBy: 'voicemail',
            analysis: analysis(false),
          },
          true,
        ),
      ];
    }
    case 'not-answered':
      return [
        status(0, 'ringing'),
        end(
          ringMs,
          {
            failed: false,
            endedReason: 'customer-did-not-answer',
            resultStatus: 'Not Answered',
            durationSeconds: 0,
            transcript: [],
          },
          false,
        ),
      ];
    case 'error':
      return [
        end(
          ringMs,
          { failed: true, endedReason: 'pipeline-error', resultStatus: null, durationSeconds: null, transcript: [] },
          false,
        ),
      ];
  }
}

/** The endedReason of a call ended through `POST /calls/{id}/end` (Vapi's value for a call ended by its API). */
export const ENDED_THROUGH_API = 'manually-canceled';

/**
 * The report of a simulated call ended through the API at `now` (docs/tools.md, "Ending a live call"): a call
 * already talking is answered and billed for the talk so far, with the transcript it has; one still ringing was
 * never answered.
 */
export function endedEarlyReport(
  call: { apiCallStatus: string | null; transcript: TranscriptMessage[]; providerCallId: string },
  timing: { placedAt: number; ringMs: number; callMs: number } | null,
  now: number,
): EndOfCallReport {
  const talking = call.apiCallStatus === 'in-progress';
  const talkMs = talking && timing ? Math.min(Math.max(0, now - timing.placedAt - timing.ringMs), timing.callMs) : 0;
  return {
    failed: false,
    endedReason: ENDED_THROUGH_API,
    resultStatus: talking ? 'Answered' : 'Not Answered',
    durationSeconds: talkMs / 1000,
    recordingUrl: talking ? `https://recordings.simulator.invalid/${call.providerCallId}.mp3` : null,
    transcript: talking ? call.transcript : [],
    answeredBy: talking ? 'human' : null,
  };
}
