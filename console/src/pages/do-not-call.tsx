import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { ConfirmButton, ErrorNote, Field, PagedView, TestBadge, formatDate, usePaged } from '../ui';
import { useLivemode, useOrgId, worldParams } from './org-layout';

type Entry = Schemas['DoNotCallEntryResponse'];

/**
 * The do-not-call ledger of the world the switch shows: a listed number is never dialled (a direct call is
 * refused, a campaign entry skipped). Numbers are added and lifted here; a lifted listing stays as history.
 */
export function DoNotCallPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const key = ['do-not-call', orgId, livemode];
  const [number, setNumber] = useState('');
  const [reason, setReason] = useState('');
  const paged = usePaged<Entry>(key, (cursor) =>
    unwrap(
      api.GET('/admin/v1/organizations/{orgId}/do-not-call', {
        params: { path: { orgId }, query: { limit: 25, cursor, livemode } },
      }),
    ),
  );
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/do-not-call', {
          params: worldParams(orgId, livemode),
          body: { number, ...(reason ? { reason } : {}) },
        }),
      ),
    onSuccess: () => {
      setNumber('');
      setReason('');
      void client.invalidateQueries({ queryKey: key });
    },
  });
  const lift = useMutation({
    mutationFn: (listed: string) =>
      unwrap(
        api.DELETE('/admin/v1/organizations/{orgId}/do-not-call/{number}', {
          params: { path: { orgId, number: listed }, query: { livemode } },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: key }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <>
      <h1>Do not call</h1>
      <form className="panel" onSubmit={submit} aria-label="Add a number to the do-not-call list">
        <Field label="Phone number" hint="International form, e.g. +14155550123">
          {(id) => <input id={id} required maxLength={40} value={number} onChange={(e) => setNumber(e.target.value)} />}
        </Field>
        <Field label="Reason">
          {(id) => <input id={id} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        <button type="submit" disabled={add.isPending}>
          Add to the list
        </button>
        {add.isError && <ErrorNote error={add.error} />}
      </form>
      {lift.isError && <ErrorNote error={lift.error} />}
      <PagedView paged={paged} empty="No number is listed.">
        {(items) => (
          <ul className="rows" data-testid="do-not-call">
            {items.map((e) => (
              <li key={e.number}>
                <strong>{e.number}</strong> <TestBadge livemode={e.livemode} />{' '}
                <span className="muted">
                  {e.source} · {formatDate(e.createdAt)}
                  {e.reason ? ` · ${e.reason}` : ''}
                </span>{' '}
                <ConfirmButton
                  label={`Lift ${e.number}`}
                  confirmLabel="The number may be called again."
                  busy={lift.isPending}
                  onConfirm={() => lift.mutate(e.number)}
                />
              </li>
            ))}
          </ul>
        )}
      </PagedView>
    </>
  );
}
