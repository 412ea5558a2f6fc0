import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ANSWERED_BY } from '../../../src/modules/call-outcomes/answered-by';
import { MAX_LABEL_NOTE } from '../../../src/modules/answer-detection/label-bounds';
import { ApiFailure, api, unwrap, type Schemas } from '../api';
import { useLivemode, useOrgId } from '../pages/org-layout';
import { ErrorNote, Field, formatDate } from '../ui';

type AnsweredBy = (typeof ANSWERED_BY)[number];

const SAID: Record<AnsweredBy, string> = {
  human: 'A person',
  voicemail: 'A voicemail box',
  screener: 'A call-screening assistant',
  unknown: 'Cannot tell',
};

/**
 * A reviewer's verdict on who answered an ended call, beside the recording: the truth the detection report
 * measures the platform against (docs/answer-detection.md). Saving again replaces the label.
 */
export function CallLabel({ call }: { call: Pick<Schemas['CallDetailResponse'], 'id' | 'status'> }) {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const params = { params: { path: { orgId, id: call.id }, query: { livemode } } };
  const key = ['call-label', orgId, livemode, call.id];
  const label = useQuery({
    queryKey: key,
    enabled: call.status === 'ended',
    // A call nobody labelled yet answers 404: that is "no label", not an error.
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/calls/{id}/label', params)).then(
        (r) => r.data,
        (error: unknown) => {
          if (error instanceof ApiFailure && error.status === 404) return null;
          throw error;
        },
      ),
  });
  const save = useMutation({
    mutationFn: (body: Schemas['LabelCallDto']) =>
      unwrap(api.PUT('/admin/v1/organizations/{orgId}/calls/{id}/label', { ...params, body })),
    onSuccess: (saved) => client.setQueryData(key, saved.data),
  });
  if (call.status !== 'ended') return <p className="muted">It can be labelled once the call has ended.</p>;
  if (label.isPending) return null;
  if (label.isError) return <ErrorNote error={label.error} />;
  const current = label.data;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const note = String(form.get('note') ?? '').trim();
    save.mutate({ answeredBy: form.get('answeredBy') as AnsweredBy, note: note || null });
  };
  return (
    <form className="stack" aria-label="Who answered" onSubmit={submit} key={current?.labelledAt ?? 'none'}>
      <p data-testid="call-label">
        {current
          ? `Labelled: ${SAID[current.answeredBy]} (${current.answeredBy}), ${formatDate(current.labelledAt)}`
          : 'Not labelled yet.'}
      </p>
      <Field label="Who answered, as heard">
        {(id) => (
          <select id={id} name="answeredBy" defaultValue={current?.answeredBy ?? 'human'}>
            {ANSWERED_BY.map((a) => (
              <option key={a} value={a}>
                {SAID[a]} ({a})
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Note" hint={`Optional, at most ${MAX_LABEL_NOTE} characters.`}>
        {(id) => (
          <textarea id={id} name="note" rows={2} maxLength={MAX_LABEL_NOTE} defaultValue={current?.note ?? ''} />
        )}
      </Field>
      <button type="submit" disabled={save.isPending}>
        Save label
      </button>
      {save.isSuccess ? <span role="status">Label saved.</span> : null}
      {save.error ? <ErrorNote error={save.error} /> : null}
    </form>
  );
}
