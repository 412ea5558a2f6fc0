import { ApiError, ErrorDetail } from '../../common/errors/api-error';
import { missingRequiredVariables } from '../calls/call-resolution';
import type { CaseVariable } from '../cases/case.entity';
import type { DialTarget } from '../contacts/contacts.repository';
import type { NewEntry } from './campaign-entries.repository';

/** One entry of an audience as resolved, before the preflight decides whether it is stored. */
export interface AudienceCandidate {
  entry: NewEntry;
  contact: DialTarget | undefined;
  /** Where the entry came from in the request: `audience.rows[3]`, `audience.contactIds[3]`, `audience.groupId`. */
  source: string;
}

/** A row refused before anything was stored; `row` is its 0-based index in the audience, `field` is within it. */
export interface RefusedRow {
  row: number;
  field: string;
  message: string;
}

export interface PreflightResult {
  /** What is stored: every accepted row, the first of each number only. */
  entries: NewEntry[];
  refusedRows: RefusedRow[];
  /** Accepted rows dropped because an earlier accepted row has the same number. */
  duplicatesRemoved: number;
}

export interface PreflightRules {
  /** The case's variable definitions (none without a case). */
  variables: readonly CaseVariable[];
  /** Numbers the organization's destination rules refuse, each with the sentence saying why. */
  refusedNumbers: ReadonlyMap<string, string>;
  /** Store the accepted rows and answer the refused ones, instead of refusing the campaign. */
  skipInvalidRows: boolean;
}

const REQUIRED_BY_CASE = 'required by the case';

/** The refusals of one candidate: its number first, then each required variable nothing resolves. */
function refusalsOf(candidate: AudienceCandidate, rules: PreflightRules): Array<Omit<RefusedRow, 'row'>> {
  const refusals: Array<Omit<RefusedRow, 'row'>> = [];
  const number = rules.refusedNumbers.get(candidate.entry.to);
  if (number) refusals.push({ field: 'to', message: number });
  const values = candidate.entry.variableValues ?? undefined;
  for (const name of missingRequiredVariables(rules.variables, { variableValues: values }, candidate.contact)) {
    refusals.push({ field: `variableValues.${name}`, message: REQUIRED_BY_CASE });
  }
  return refusals;
}

/**
 * Checks every row of a campaign's audience before anything is stored (the same rules a call is refused by:
 * the case's required variables, the destination rules), then drops repeated numbers (the first accepted row
 * wins: a number is called once per campaign). Without `skipInvalidRows` any refused row refuses the campaign:
 * 422 VALIDATION_ERROR naming each (at most 100 listed). With it, the refused rows are answered, not stored; a
 * campaign left with nothing to call is still refused.
 */
export function preflightAudience(candidates: readonly AudienceCandidate[], rules: PreflightRules): PreflightResult {
  const refusedRows: RefusedRow[] = [];
  const details: ErrorDetail[] = [];
  const accepted: NewEntry[] = [];
  candidates.forEach((candidate, row) => {
    const refusals = refusalsOf(candidate, rules);
    for (const r of refusals) {
      refusedRows.push({ row, ...r });
      details.push({ field: `${candidate.source}.${r.field}`, message: r.message });
    }
    if (!refusals.length) accepted.push(candidate.entry);
  });
  if (details.length && (!rules.skipInvalidRows || !accepted.length)) {
    throw ApiError.unprocessable(details);
  }
  const seen = new Set<string>();
  const entries = accepted.filter((e) => !seen.has(e.to) && seen.add(e.to));
  return { entries, refusedRows, duplicatesRemoved: accepted.length - entries.length };
}
