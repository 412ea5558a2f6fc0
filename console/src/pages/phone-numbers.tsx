import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api';
import { Field, FormActions, QueryView, formatDate } from '../ui';
import { NumberHealthLink } from '../numbers/number-health';
import { orgPath, useOrgId } from './org-layout';

export function PhoneNumbersPage() {
  const orgId = useOrgId();
  const [adding, setAdding] = useState(false);
  const numbers = useQuery({
    queryKey: ['numbers', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/phone-numbers', { params: orgPath(orgId) })),
  });
  return (
    <>
      <h1>Phone numbers</h1>
      {adding ? (
        <ImportNumberForm orgId={orgId} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          Import from voice platform
        </button>
      )}
      <QueryView query={numbers} empty="No phone numbers yet." isEmpty={(d) => d.data.length === 0}>
        {({ data }) => (
          <ul className="rows">
            {data.map((n) => (
              <li key={n.id}>
                <strong>{n.number}</strong> {n.label} <span className="muted">added {formatDate(n.createdAt)}</span>{' '}
                <NumberHealthLink numberId={n.id} number={n.number} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </>
  );
}

/**
 * Assigns a number without a platform id: on Vapi the service finds the number in the Vapi account and points it
 * at itself (docs/providers.md); a number Vapi does not have is refused (INVALID_PHONE), shown by FormActions.
 */
function ImportNumberForm({ orgId, onDone }: { orgId: string; onDone: () => void }) {
  const client = useQueryClient();
  const [number, setNumber] = useState('');
  const [label, setLabel] = useState('');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/phone-numbers', {
          params: orgPath(orgId),
          body: { number, ...(label ? { label } : {}) },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['numbers', orgId] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="panel" aria-label="Import a phone number">
      <Field label="Number (E.164)" hint="Bought or imported in the voice platform's dashboard first.">
        {(id) => (
          <input
            id={id}
            required
            pattern="\+[1-9][0-9]{6,14}"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
          />
        )}
      </Field>
      <Field label="Label">
        {(id) => <input id={id} maxLength={200} value={label} onChange={(e) => setLabel(e.target.value)} />}
      </Field>
      <FormActions saveLabel="Import" busy={save.isPending} error={save.error} onCancel={onDone} />
    </form>
  );
}
