import { VARIABLE_VALUES_LIMITS as V } from '../../../src/modules/calls/variable-values-limits';
import { SCENARIO_BOUNDS as B } from '../../../src/modules/scenarios/scenario-bounds';
import type { Schemas } from '../api';

export type Scenario = Schemas['ScenarioResponse'];
type Body = Omit<Schemas['CreateScenarioDto'], 'caseId'>;

/** What the scenario form holds: lists as lines, the expected tool calls as rows, their arguments as JSON. */
export interface ScenarioDraft {
  name: string;
  variables: string;
  turns: string;
  replyIncludes: string;
  replyExcludes: string;
  toolCalls: Array<{ name: string; argumentsInclude: string }>;
  handOff: '' | 'true' | 'false';
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

export function draftOf(scenario?: Scenario): ScenarioDraft {
  const e = scenario?.expect;
  return {
    name: scenario?.name ?? '',
    variables: Object.entries(scenario?.variables ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    turns: (scenario?.turns ?? []).join('\n'),
    replyIncludes: (e?.replyIncludes ?? []).join('\n'),
    replyExcludes: (e?.replyExcludes ?? []).join('\n'),
    toolCalls: (e?.toolCalls ?? []).map((c) => ({
      name: c.name,
      argumentsInclude: c.argumentsInclude ? JSON.stringify(c.argumentsInclude) : '',
    })),
    handOff: e?.handOff === undefined ? '' : e.handOff ? 'true' : 'false',
  };
}

/** The form's fields the checks speak about, named as the API names them (`problemWith` reads the same names). */
export type DraftField =
  | 'name'
  | 'variables'
  | 'turns'
  | 'expect.replyIncludes'
  | 'expect.replyExcludes'
  | 'expect.toolCalls'
  | 'expect.handOff';

/** A list of strings in bounds: at most `count`, each 1-`length` characters (blank lines are dropped). */
function listProblem(items: string[], what: string, count: number, length: number, min = 0): string | undefined {
  if (items.length < min) return `Write at least ${min === 1 ? 'one' : min} (one a line)`;
  if (items.length > count) return `At most ${count} ${what} (${items.length} given)`;
  const long = items.findIndex((item) => item.length > length);
  return long >= 0 ? `Line ${long + 1} is longer than ${length} characters` : undefined;
}

function variablesOf(text: string): { value: Record<string, string>; problem?: string } {
  const value: Record<string, string> = {};
  for (const [i, line] of lines(text).entries()) {
    const eq = line.indexOf('=');
    const key = eq < 0 ? '' : line.slice(0, eq).trim();
    if (!key) return { value, problem: `Line ${i + 1}: write name=value` };
    if (key.length > V.maxKeyLength)
      return { value, problem: `Line ${i + 1}: a name is at most ${V.maxKeyLength} characters` };
    const text = line.slice(eq + 1);
    if (text.length > V.maxStringLength) {
      return { value, problem: `Line ${i + 1}: a value is at most ${V.maxStringLength} characters` };
    }
    value[key] = text;
  }
  const keys = Object.keys(value).length;
  return keys > V.maxKeys ? { value, problem: `At most ${V.maxKeys} variables (${keys} given)` } : { value };
}

function toolCallsOf(rows: ScenarioDraft['toolCalls']): {
  value: NonNullable<Body['expect']['toolCalls']>;
  problem?: string;
} {
  const value: NonNullable<Body['expect']['toolCalls']> = [];
  if (rows.length > B.toolCalls) return { value, problem: `At most ${B.toolCalls} tool calls` };
  for (const [i, row] of rows.entries()) {
    const name = row.name.trim();
    if (name.length < 1 || name.length > B.toolName) {
      return { value, problem: `Tool call ${i + 1}: a name of 1-${B.toolName} characters` };
    }
    if (!row.argumentsInclude.trim()) {
      value.push({ name });
      continue;
    }
    let args: unknown;
    try {
      args = JSON.parse(row.argumentsInclude);
    } catch {
      return { value, problem: `Tool call ${i + 1}: the arguments are not valid JSON` };
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return { value, problem: `Tool call ${i + 1}: the arguments must be a JSON object, e.g. {"day": "Tuesday"}` };
    }
    if (Object.keys(args).length > B.argumentKeys || new Blob([JSON.stringify(args)]).size > B.argumentBytes) {
      return {
        value,
        problem: `Tool call ${i + 1}: at most ${B.argumentKeys} arguments and ${B.argumentBytes} bytes`,
      };
    }
    value.push({ name, argumentsInclude: args as Record<string, unknown> });
  }
  return { value };
}

/**
 * The body of a draft with the checks the API makes, done first in the browser (the same bounds, read from the
 * service's own constants): a draft with problems never leaves the page; what only the API knows (the case's
 * scenario cap) comes back as its error, shown beside the field it names.
 */
export function checkDraft(draft: ScenarioDraft): { body: Body; problems: Partial<Record<DraftField, string>> } {
  const turns = lines(draft.turns);
  const replyIncludes = lines(draft.replyIncludes);
  const replyExcludes = lines(draft.replyExcludes);
  const variables = variablesOf(draft.variables);
  const toolCalls = toolCallsOf(draft.toolCalls);
  const problems: Partial<Record<DraftField, string>> = {
    name: draft.name.length < 1 || draft.name.length > B.name ? `A name of 1-${B.name} characters` : undefined,
    variables: variables.problem,
    turns: listProblem(turns, 'turns', B.turns, B.turnText, 1),
    'expect.replyIncludes': listProblem(replyIncludes, 'strings', B.replyStrings, B.replyText),
    'expect.replyExcludes': listProblem(replyExcludes, 'strings', B.replyStrings, B.replyText),
    'expect.toolCalls': toolCalls.problem,
  };
  for (const key of Object.keys(problems) as DraftField[]) if (!problems[key]) delete problems[key];
  return {
    problems,
    body: {
      name: draft.name,
      variables: variables.value,
      turns,
      expect: {
        ...(replyIncludes.length ? { replyIncludes } : {}),
        ...(replyExcludes.length ? { replyExcludes } : {}),
        ...(toolCalls.value.length ? { toolCalls: toolCalls.value } : {}),
        ...(draft.handOff ? { handOff: draft.handOff === 'true' } : {}),
      },
    },
  };
}
