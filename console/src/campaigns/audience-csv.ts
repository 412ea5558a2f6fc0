import Papa from 'papaparse';
// The API's own rules, imported from the service's sources (plain functions, no Node or validation framework),
// so a row the console accepts is a row POST /campaigns accepts.
import { toE164 } from '../../../src/common/validation/e164';
import { flatRecordProblem } from '../../../src/common/validation/flat-record';
import { VARIABLE_VALUES_LIMITS } from '../../../src/modules/calls/variable-values-limits';
import { CAMPAIGN_BOUNDS } from '../../../src/modules/audiences/campaign-bounds';

export interface AudienceRow {
  to: string;
  contactId?: string;
  variableValues?: Record<string, string>;
}

/** A row the API would refuse: its line in the file (the header is line 1) and why. */
export interface BadRow {
  line: number;
  problem: string;
}

export interface ParsedAudience {
  rows: AudienceRow[];
  /** The file's line of each row in `rows` (same order), to name a row the API refuses. */
  lines: number[];
  bad: BadRow[];
  /** A problem with the file as a whole (no `to` column, too many rows): nothing can be created from it. */
  fileProblem?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESERVED = new Set(['to', 'contactId']);

/**
 * A campaign audience from CSV text: a header row naming `to`, optionally `contactId`, and any other columns as
 * the row's variables (an empty cell sets no variable). Every row is checked with the API's rules; the good rows
 * and the bad ones (by line) come back together so the person fixes the file before anything is created.
 */
export function parseAudienceCsv(text: string): ParsedAudience {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const columns = parsed.meta.fields ?? [];
  if (!columns.includes('to')) return { rows: [], lines: [], bad: [], fileProblem: 'The file has no "to" column.' };
  if (parsed.data.length > CAMPAIGN_BOUNDS.audience) {
    return {
      rows: [],
      lines: [],
      bad: [],
      fileProblem: `The file has ${parsed.data.length} rows; a campaign takes at most ${CAMPAIGN_BOUNDS.audience}.`,
    };
  }
  const rows: AudienceRow[] = [];
  const lines: number[] = [];
  const bad: BadRow[] = [];
  const structural = new Map<number, string>();
  for (const error of parsed.errors) {
    if (error.row !== undefined && !structural.has(error.row)) structural.set(error.row, error.message);
  }
  parsed.data.forEach((record, index) => {
    const line = index + 2;
    const result = checkRow(record, structural.get(index));
    if (typeof result === 'string') bad.push({ line, problem: result });
    else {
      rows.push(result);
      lines.push(line);
    }
  });
  return { rows, lines, bad };
}

function checkRow(record: Record<string, string>, structural: string | undefined): AudienceRow | string {
  if (structural) return structural;
  const raw = (record.to ?? '').trim();
  const to = toE164(raw);
  if (!to) return `to: "${raw.slice(0, 40)}" is not a phone number in E.164 format, e.g. +14155550123`;
  const contactId = (record.contactId ?? '').trim();
  if (contactId && !UUID.test(contactId)) return `contactId: "${contactId.slice(0, 40)}" is not a UUID`;
  const variables = Object.fromEntries(
    Object.entries(record).filter(([key, value]) => !RESERVED.has(key) && typeof value === 'string' && value !== ''),
  );
  const problem = flatRecordProblem(variables, VARIABLE_VALUES_LIMITS);
  if (problem) return `variables ${problem}`;
  return {
    to,
    ...(contactId ? { contactId } : {}),
    ...(Object.keys(variables).length ? { variableValues: variables } : {}),
  };
}
