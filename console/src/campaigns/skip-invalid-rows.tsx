import { Link } from 'react-router';
import { ApiFailure, type Schemas } from '../api';

type Created = Schemas['ConsoleCreatedCampaignResponse'];

/** A refusal naming audience rows (`audience.rows[13].to`): the campaign could be created without them. */
const ROW_FIELD = /^audience\.rows\[(\d+)\]/;

/** How many distinct audience rows the preflight's refusal names (0 when it is about something else). */
export function refusedRowCount(error: unknown): number {
  if (!(error instanceof ApiFailure) || error.code !== 'VALIDATION_ERROR') return 0;
  return new Set(error.details.map((d) => ROW_FIELD.exec(d.field)?.[1]).filter(Boolean)).size;
}

/**
 * Offered when the preflight refused rows: create the campaign from the rows that can be called
 * (`skipInvalidRows: true`); the answer then lists the refused ones. A refusal lists at most 100 fields, so the
 * count shown is "at least" past that.
 */
export function SkipInvalidRowsOffer({
  error,
  rowsSent,
  busy,
  onSkip,
}: {
  error: unknown;
  /** The audience's rows, when the console knows them (a CSV): with every one refused nothing could be made. */
  rowsSent?: number;
  busy: boolean;
  onSkip: () => void;
}) {
  const count = refusedRowCount(error);
  if (!count || (rowsSent !== undefined && count >= rowsSent)) return null;
  return (
    <div className="panel" role="group" aria-label="Refused rows">
      <p>
        {count >= 100 ? 'At least 100' : count} row{count === 1 ? '' : 's'} cannot be called. The campaign can be
        created from the others, leaving {count === 1 ? 'it' : 'them'} out.
      </p>
      <button type="button" disabled={busy} onClick={onSkip}>
        Create without the refused rows
      </button>
    </div>
  );
}

/**
 * What the created campaign left out: refused rows (with `skipInvalidRows`), named by their line in the CSV file
 * when the audience came from one, and rows dropped as repeats of an earlier number.
 */
export function CreatedReport({
  answer,
  lineOf,
  campaignPath,
}: {
  answer: Created;
  /** The CSV line of an audience row, when the audience came from a file. */
  lineOf?: (row: number) => number | undefined;
  campaignPath: string;
}) {
  const refused = answer.refusedRows ?? [];
  const where = (row: number) => {
    const line = lineOf?.(row);
    return line ? `Line ${line}` : `Row ${row + 1}`;
  };
  return (
    <div role="status" className="panel" data-testid="created-report">
      <p>
        Campaign <strong>{answer.name}</strong> created with {answer.counts.total} entries: {refused.length} refused row
        {refused.length === 1 ? '' : 's'} left out, {answer.duplicatesRemoved} duplicate number
        {answer.duplicatesRemoved === 1 ? '' : 's'} removed.
      </p>
      {refused.length > 0 && (
        <ul className="error" data-testid="refused-rows">
          {refused.map((r) => (
            <li key={`${r.row}-${r.field}`}>
              {where(r.row)}: {r.field} {r.message}
            </li>
          ))}
        </ul>
      )}
      <Link to={campaignPath}>Open the campaign</Link>
    </div>
  );
}
