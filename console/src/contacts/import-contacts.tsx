import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { useLivemode, useOrgId, useWorldPath, worldParams } from '../pages/org-layout';
import { ErrorNote, Field } from '../ui';
import { BATCH_SIZE, MAX_IMPORT_LINES, parseContactsCsv, type ContactLine, type ParsedContacts } from './contacts-csv';

interface Chosen extends ParsedContacts {
  fileName: string;
  /** Names this import: each request's Idempotency-Key is it and the request's number, so a retry replays. */
  importId: string;
}

interface Outcome {
  created: number;
  exists: number;
  refused: Array<{ line: number; problem: string }>;
}

type BatchRow = Schemas['ContactsBatchRowResponse'];

/**
 * Contacts from a CSV file, read in the browser and sent 1,000 rows per request through the batch route (the
 * rules of POST /contacts, in the world the switch shows). Each request carries an Idempotency-Key made from the
 * import and the request's number: "Import" again after a failure replays what was already created.
 */
export function ImportContactsPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const worldPath = useWorldPath();
  const client = useQueryClient();
  const [file, setFile] = useState<Chosen>();
  const [progress, setProgress] = useState(0);
  const send = useMutation({
    mutationFn: async (chosen: Chosen): Promise<Outcome> => {
      const outcome: Outcome = { created: 0, exists: 0, refused: [...chosen.unreadable] };
      for (let start = 0; start < chosen.lines.length; start += BATCH_SIZE) {
        const lines = chosen.lines.slice(start, start + BATCH_SIZE);
        const answer = await unwrap(
          api.POST('/admin/v1/organizations/{orgId}/contacts/batch', {
            params: { ...worldParams(orgId, livemode), header: { 'Idempotency-Key': `${chosen.importId}-${start}` } },
            body: { contacts: lines.map((l) => l.row) },
          }),
        );
        tally(outcome, lines, answer.data);
        setProgress(start + lines.length);
      }
      outcome.refused.sort((a, b) => a.line - b.line);
      return outcome;
    },
    onSettled: () => void client.invalidateQueries({ queryKey: ['contacts', orgId] }),
  });
  return (
    <>
      <h1>Import contacts</h1>
      <p>
        <Link to={worldPath(`/orgs/${orgId}/contacts`)}>Back to contacts</Link>
      </p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) send.mutate(file);
        }}
      >
        <Field
          label="CSV file"
          hint={`Columns: title and phone (E.164), optional email, notes and tags (separated by ";"); any other column is a custom field. At most ${MAX_IMPORT_LINES.toLocaleString('en-US')} rows, sent ${BATCH_SIZE.toLocaleString('en-US')} at a time.`}
        >
          {(id) => (
            <input
              id={id}
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                send.reset();
                setProgress(0);
                if (chosen)
                  void chosen
                    .text()
                    .then((text) =>
                      setFile({ ...parseContactsCsv(text), fileName: chosen.name, importId: crypto.randomUUID() }),
                    );
              }}
            />
          )}
        </Field>
        {file?.fileProblem ? (
          <p role="alert" className="error">
            {file.fileName}: {file.fileProblem}
          </p>
        ) : null}
        {file && !file.fileProblem ? (
          <p data-testid="import-ready">
            {file.fileName}: {file.lines.length} rows to send
            {file.unreadable.length ? `, ${file.unreadable.length} unreadable` : ''}.
          </p>
        ) : null}
        <button type="submit" disabled={!file || !!file.fileProblem || file.lines.length === 0 || send.isPending}>
          {send.isPending ? `Importing… ${progress} of ${file?.lines.length ?? 0}` : 'Import'}
        </button>
        {send.isError ? <ErrorNote error={send.error} /> : null}
        {send.data ? <ImportReport outcome={send.data} /> : null}
      </form>
    </>
  );
}

/** Adds one answer to the outcome; a refused row is named by its line in the file. */
function tally(outcome: Outcome, lines: ContactLine[], answer: BatchRow[]): void {
  for (const result of answer) {
    if (result.status === 'created') outcome.created += 1;
    else if (result.status === 'exists') outcome.exists += 1;
    else outcome.refused.push({ line: lines[result.row].line, problem: result.error?.message ?? 'refused' });
  }
}

function ImportReport({ outcome }: { outcome: Outcome }) {
  return (
    <div role="status" data-testid="import-report">
      <p>
        <strong>{outcome.created} created</strong>, {outcome.exists} already there (same phone, left unchanged),{' '}
        {outcome.refused.length} refused.
      </p>
      {outcome.refused.length > 0 && (
        <ul className="error" data-testid="refused-lines">
          {outcome.refused.slice(0, 200).map((r) => (
            <li key={r.line}>
              Line {r.line}: {r.problem}
            </li>
          ))}
          {outcome.refused.length > 200 && <li>… and {outcome.refused.length - 200} more</li>}
        </ul>
      )}
    </div>
  );
}
