import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { ConfirmButton, ErrorNote, QueryView, ShownOnce, TestBadge, formatDate } from '../ui';
import { useLivemode, useOrgId, worldParams } from './org-layout';
import { DeliveryLog } from './webhook-deliveries';
import { WebhookForm } from './webhook-form';

export function WebhooksPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const [creating, setCreating] = useState(false);
  // One endpoint's log open at a time: each open log polls.
  const [openLog, setOpenLog] = useState<string>();
  const endpoints = useQuery({
    queryKey: ['webhooks', orgId, livemode],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/webhooks', { params: worldParams(orgId, livemode) })),
  });
  const setActive = useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      unwrap(
        api.PATCH('/admin/v1/organizations/{orgId}/webhooks/{id}', {
          params: { path: { orgId, id }, query: { livemode } },
          body: { isActive },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['webhooks', orgId] }),
  });
  const rotate = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/webhooks/{id}/rotate-secret', {
          params: { path: { orgId, id }, query: { livemode } },
        }),
      ),
    onSuccess: (result) => setSecret({ label: 'New signing secret.', value: result.data.secret }),
  });
  return (
    <>
      <h1>Webhooks</h1>
      {!creating && (
        <button type="button" onClick={() => setCreating(true)}>
          New endpoint
        </button>
      )}
      {creating && (
        <WebhookForm
          onCancel={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setSecret({ label: `Signing secret of ${created.url}.`, value: created.secret });
            setOpenLog(created.id);
          }}
        />
      )}
      {secret && <ShownOnce label={secret.label} value={secret.value} />}
      {setActive.isError && <ErrorNote error={setActive.error} />}
      {rotate.isError && <ErrorNote error={rotate.error} />}
      <QueryView query={endpoints} empty="No webhook endpoints yet." isEmpty={(d) => d.data.length === 0}>
        {({ data }) => (
          <ul className="rows">
            {data.map((w) => (
              <li key={w.id}>
                <strong>{w.url}</strong> <TestBadge livemode={w.livemode} />{' '}
                <span className={`badge ${w.isActive ? 'badge-ended' : 'badge-error'}`}>
                  {w.isActive ? 'enabled' : 'disabled'}
                </span>
                <p className="muted">
                  {w.events.join(', ')} · created {formatDate(w.createdAt)}
                </p>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setActive.mutate({ id: w.id, isActive: !w.isActive })}
                >
                  {w.isActive ? 'Disable' : 'Enable'} {w.url}
                </button>
                <ConfirmButton
                  label="Rotate secret"
                  confirmLabel="The old secret stops working at once."
                  onConfirm={() => rotate.mutate(w.id)}
                />
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={openLog === w.id}
                  onClick={() => setOpenLog(openLog === w.id ? undefined : w.id)}
                >
                  Delivery log
                </button>
                {openLog === w.id && <DeliveryLog orgId={orgId} endpointId={w.id} />}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </>
  );
}
