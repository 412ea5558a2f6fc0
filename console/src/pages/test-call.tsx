import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNote, Field } from '../ui';
import { orgPath, useOrgId, worldPath } from './org-layout';
import { CaseSelect } from './choices';

/** `name=value` lines as a call's variableValues (the first `=` splits; blank lines skipped); undefined when none. */
function variablesOf(text: string): Record<string, string> | undefined {
  const pairs = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const at = line.indexOf('=');
      return at < 0 ? [line.trim(), ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    });
  return pairs.length ? Object.fromEntries(pairs) : undefined;
}

/**
 * Places a test call through the console (always simulated, free) and opens its detail in the test world, where
 * the call belongs.
 */
export function TestCallForm() {
  const orgId = useOrgId();
  const [to, setTo] = useState('+14155550101');
  const [from, setFrom] = useState('');
  const [caseId, setCaseId] = useState('');
  const [contactId, setContactId] = useState('');
  const [variables, setVariables] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const numbers = useQuery({
    queryKey: ['numbers', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/phone-numbers', { params: orgPath(orgId) })),
  });
  const place = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/test-calls', {
          params: orgPath(orgId),
          // As POST /calls takes them: the API names a missing required variable or an unknown contact.
          body: {
            to,
            from: from || numbers.data?.data[0]?.number || '',
            ...(caseId ? { caseId } : {}),
            ...(contactId.trim() ? { contactId: contactId.trim() } : {}),
            ...(variablesOf(variables) ? { variableValues: variablesOf(variables) } : {}),
          },
        }),
      ),
    onSuccess: (call) => {
      void client.invalidateQueries({ queryKey: ['calls', orgId] });
      // A test call is in the test world: its page is shown there.
      void navigate(worldPath(false, `/orgs/${orgId}/calls/${call.data.id}`));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    place.mutate();
  };
  const hasNumbers = (numbers.data?.data.length ?? 0) > 0;
  return (
    <form onSubmit={submit} className="inline-form" aria-label="Test call">
      <Field label="Call to" hint="With the simulator, the last digit picks the outcome (0-6 answered).">
        {(id) => <input id={id} required value={to} onChange={(e) => setTo(e.target.value)} />}
      </Field>
      <Field label="From">
        {(id) => (
          <select id={id} value={from} onChange={(e) => setFrom(e.target.value)} disabled={!hasNumbers}>
            {numbers.data?.data.map((n) => (
              <option key={n.id} value={n.number}>
                {n.number} {n.label ? `(${n.label})` : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      <CaseSelect orgId={orgId} value={caseId} onChange={setCaseId} none="None" hint="The script the call follows" />
      <Field label="Contact id" hint="Optional: a test-world contact whose fields fill the case's variables">
        {(id) => <input id={id} value={contactId} onChange={(e) => setContactId(e.target.value)} />}
      </Field>
      <Field label="Variables" hint="One name=value per line, e.g. date=Friday 10:00">
        {(id) => <textarea id={id} rows={2} value={variables} onChange={(e) => setVariables(e.target.value)} />}
      </Field>
      <button type="submit" disabled={place.isPending || !hasNumbers}>
        Place test call
      </button>
      {!numbers.isPending && !hasNumbers && <p className="empty">Add a phone number to place calls.</p>}
      {place.isError && <ErrorNote error={place.error} />}
    </form>
  );
}
