import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { CAMPAIGN_BOUNDS } from '../../../src/modules/audiences/campaign-bounds';
import { api, unwrap, type Schemas } from '../api';
import { orgPath, useLivemode, useOrgId, useWorldPath, worldParams } from '../pages/org-layout';
import { CaseSelect, GroupSelect } from '../pages/choices';
import { ErrorNote, Field } from '../ui';
import { parseAudienceCsv, type ParsedAudience } from './audience-csv';
import { CreatedReport, SkipInvalidRowsOffer } from './skip-invalid-rows';
import { CapField, RetryFields, WindowFields, defaultRetry, defaultWindow } from './campaign-form-parts';

type Body = Schemas['CreateCampaignDto'];

/**
 * A campaign from a CSV file (checked row by row in the browser with the API's rules; bad rows are named and
 * left out, nothing is sent until the person creates) or from a contact group. Created in draft, in the world the
 * switch shows, then opened on its own page where it is started.
 */
export function NewCampaignPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const livemode = useLivemode();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [caseId, setCaseId] = useState('');
  const [source, setSource] = useState<'csv' | 'group'>('csv');
  const [csv, setCsv] = useState<ParsedAudience & { fileName: string }>();
  const [groupId, setGroupId] = useState('');
  const [window, setWindow] = useState(defaultWindow);
  const [useWindow, setUseWindow] = useState(false);
  const [retry, setRetry] = useState(defaultRetry);
  const [useRetry, setUseRetry] = useState(false);
  const [maxConcurrent, setMaxConcurrent] = useState('');
  const [callsPerMinute, setCallsPerMinute] = useState('');
  const numbers = useQuery({
    queryKey: ['numbers', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/phone-numbers', { params: orgPath(orgId) })),
  });
  const [created, setCreated] = useState<Schemas['ConsoleCreatedCampaignResponse']>();
  const create = useMutation({
    mutationFn: (body: Body) =>
      unwrap(api.POST('/admin/v1/organizations/{orgId}/campaigns', { params: worldParams(orgId, livemode), body })),
    // What the preflight left out is shown before the campaign's page; a clean audience goes straight there.
    onSuccess: ({ data }) => {
      if (data.refusedRows?.length || data.duplicatesRemoved) setCreated(data);
      else void navigate(worldPath(`/orgs/${orgId}/campaigns/${data.id}`));
    },
  });
  const rows = csv && !csv.fileProblem ? csv.rows : [];
  const ready = source === 'csv' ? rows.length > 0 : groupId !== '';
  const submit = (event?: FormEvent, skipInvalidRows = false) => {
    event?.preventDefault();
    create.mutate({
      name,
      from: from || numbers.data?.data[0]?.number || '',
      ...(caseId ? { caseId } : {}),
      audience: source === 'csv' ? { rows } : { groupId },
      ...(useWindow ? { window } : {}),
      ...(useRetry ? { retry } : {}),
      ...(maxConcurrent ? { maxConcurrent: Number(maxConcurrent) } : {}),
      ...(callsPerMinute ? { callsPerMinute: Number(callsPerMinute) } : {}),
      ...(skipInvalidRows ? { skipInvalidRows } : {}),
    });
  };
  return (
    <>
      <h1>New campaign</h1>
      <form className="stack" onSubmit={submit}>
        <Field label="Name">
          {(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Call from">
          {(id) => (
            <select id={id} value={from} onChange={(e) => setFrom(e.target.value)}>
              {numbers.data?.data.map((n) => (
                <option key={n.id} value={n.number}>
                  {n.number}
                </option>
              ))}
            </select>
          )}
        </Field>
        <CaseSelect
          orgId={orgId}
          value={caseId}
          onChange={setCaseId}
          none="None"
          hint="What the assistant talks about; its variables come from the rows."
        />
        <fieldset>
          <legend>Who to call</legend>
          <div className="checks">
            <label>
              <input type="radio" name="source" checked={source === 'csv'} onChange={() => setSource('csv')} /> A CSV
              file
            </label>
            <label>
              <input type="radio" name="source" checked={source === 'group'} onChange={() => setSource('group')} /> A
              contact group
            </label>
          </div>
          {source === 'csv' ? (
            <>
              <Field
                label="CSV file"
                hint={`Columns: to (E.164), optional contactId, any others are the call's variables. At most ${CAMPAIGN_BOUNDS.audience} rows.`}
              >
                {(id) => (
                  <input
                    id={id}
                    type="file"
                    accept=".csv,text/csv"
                    onChange={(e) => {
                      const file = e.target.files?.[0];
                      if (file)
                        void file.text().then((text) => setCsv({ ...parseAudienceCsv(text), fileName: file.name }));
                    }}
                  />
                )}
              </Field>
              {csv && <CsvReport report={csv} />}
            </>
          ) : (
            <GroupSelect
              orgId={orgId}
              livemode={livemode}
              label="Contact group"
              value={groupId}
              onChange={setGroupId}
              none="Choose a group"
            />
          )}
        </fieldset>
        <label>
          <input type="checkbox" checked={useWindow} onChange={(e) => setUseWindow(e.target.checked)} /> Call only
          inside a calling window
        </label>
        {useWindow && <WindowFields value={window} onChange={setWindow} />}
        <label>
          <input type="checkbox" checked={useRetry} onChange={(e) => setUseRetry(e.target.checked)} /> Retry unanswered
          calls
        </label>
        {useRetry && <RetryFields value={retry} onChange={setRetry} />}
        <CapField
          label="Calls at once"
          max={CAMPAIGN_BOUNDS.maxConcurrent}
          value={maxConcurrent}
          onChange={setMaxConcurrent}
        />
        <CapField
          label="New calls per minute"
          max={CAMPAIGN_BOUNDS.callsPerMinute}
          value={callsPerMinute}
          onChange={setCallsPerMinute}
        />
        <button type="submit" disabled={!ready || create.isPending || !!created}>
          {source === 'csv'
            ? `Create campaign from ${rows.length} row${rows.length === 1 ? '' : 's'}`
            : 'Create campaign'}
        </button>
        {create.isError && <ErrorNote error={create.error} listDetails />}
        {create.isError && (
          <SkipInvalidRowsOffer
            error={create.error}
            rowsSent={source === 'csv' ? rows.length : undefined}
            busy={create.isPending}
            onSkip={() => submit(undefined, true)}
          />
        )}
        {created && (
          <CreatedReport
            answer={created}
            lineOf={source === 'csv' ? (row) => csv?.lines[row] : undefined}
            campaignPath={worldPath(`/orgs/${orgId}/campaigns/${created.id}`)}
          />
        )}
      </form>
    </>
  );
}

/** What the file holds: rows ready, and each refused row by its line, before anything is created. */
function CsvReport({ report }: { report: ParsedAudience & { fileName: string } }) {
  if (report.fileProblem) {
    return (
      <p role="alert" className="error">
        {report.fileName}: {report.fileProblem}
      </p>
    );
  }
  return (
    <div role="status" data-testid="csv-report">
      <p>
        {report.fileName}: <strong>{report.rows.length} rows ready</strong>
        {report.bad.length > 0 && `, ${report.bad.length} refused and left out:`}
      </p>
      {report.bad.length > 0 && (
        <ul className="error" data-testid="bad-rows">
          {report.bad.slice(0, 100).map((b) => (
            <li key={b.line}>
              Line {b.line}: {b.problem}
            </li>
          ))}
          {report.bad.length > 100 && <li>… and {report.bad.length - 100} more</li>}
        </ul>
      )}
    </div>
  );
}
