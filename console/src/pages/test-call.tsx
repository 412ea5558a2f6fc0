import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNote, Field } from '../ui';
import { orgPath, useOrgId, worldPath } from './org-layout';

/**
 * Places a test call through the console (always simulated, free) and opens its detail in the test world, where
 * the call belongs.
 */
export function TestCallForm() {
  const orgId = useOrgId();
  const [to, setTo] = useState('+14155550101');
  const [from, setFrom] = useState('');
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
          body: { to, from: from || numbers.data?.data[0]?.number || '' },
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
      <button type="submit" disabled={place.isPending || !hasNumbers}>
        Place test call
      </button>
      {!numbers.isPending && !hasNumbers && <p className="empty">Add a phone number to place calls.</p>}
      {place.isError && <ErrorNote error={place.error} />}
    </form>
  );
}
