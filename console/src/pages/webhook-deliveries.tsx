import { WEBHOOK_TEST_EVENT } from '../../../src/modules/webhooks/webhook-test-event';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { ErrorNote, ExpandButton, PagedView, StatusBadge, Table, formatDate, usePaged } from '../ui';
import { useLivemode } from './org-layout';

type Delivery = Schemas['WebhookDeliveryResponse'];

/**
 * One endpoint's delivery log (the webhook operations' own list, cursor-paginated), with a test ping and a
 * re-send per delivery. The log refreshes every 3 s: a re-send is queued, and its attempt is logged when done.
 */
export function DeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
  const client = useQueryClient();
  const livemode = useLivemode();
  const key = ['webhook-deliveries', orgId, livemode, endpointId];
  const path = { orgId, id: endpointId };
  const query = { livemode };
  const paged = usePaged<Delivery>(
    key,
    (cursor) =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/webhooks/{id}/deliveries', {
          params: { path, query: { limit: 20, cursor, livemode } },
        }),
      ),
    3000,
  );
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  const ping = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/admin/v1/organizations/{orgId}/webhooks/{id}/test', { params: { path, query } })),
    onSuccess: refresh,
  });
  const replay = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}/retry', {
          params: { path: { ...path, deliveryId }, query },
        }),
      ),
    onSuccess: refresh,
  });
  return (
    <section className="delivery-log" aria-label="Delivery log">
      <button
        type="button"
        disabled={ping.isPending}
        onClick={() => {
          replay.reset();
          ping.mutate();
        }}
      >
        {ping.isPending ? 'Sending test ping…' : 'Send test ping'}
      </button>
      <p role="status" className="muted">
        {ping.data && `Test ping ${ping.data.data.status}: ${outcome(ping.data.data.attempts[0])}`}
        {replay.data && `Re-send queued as attempt ${replay.data.data.attempt}.`}
      </p>
      {ping.isError && <ErrorNote error={ping.error} />}
      {replay.isError && <ErrorNote error={replay.error} />}
      <PagedView paged={paged} empty="No deliveries yet (attempts are kept 14 days).">
        {(items) => (
          <ul className="rows" data-testid="deliveries">
            {items.map((d) => (
              <DeliveryRow
                key={d.id}
                delivery={d}
                replaying={replay.isPending}
                onReplay={() => {
                  replay.reset();
                  ping.reset();
                  replay.mutate(d.id);
                }}
              />
            ))}
          </ul>
        )}
      </PagedView>
    </section>
  );
}

function DeliveryRow({
  delivery: d,
  replaying,
  onReplay,
}: {
  delivery: Delivery;
  replaying: boolean;
  onReplay: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li data-testid={`delivery-${d.id}`}>
      <ExpandButton open={open} onToggle={() => setOpen(!open)}>
        {d.event}
      </ExpandButton>{' '}
      <StatusBadge status={d.status} />{' '}
      <span className="muted">
        {formatDate(d.createdAt)} · {d.attempts.length} {d.attempts.length === 1 ? 'attempt' : 'attempts'}
      </span>{' '}
      {/* A test ping is never re-sent (the API refuses it): "Send test ping" sends a new one. */}
      {d.event !== WEBHOOK_TEST_EVENT && (
        <button type="button" className="secondary" disabled={replaying} onClick={onReplay}>
          Replay
        </button>
      )}
      {open && (
        <Table headers={['#', 'At', 'Status code', 'Duration', 'Error']} testId={`attempts-${d.id}`}>
          {d.attempts.map((a) => (
            <tr key={a.attempt}>
              <td>{a.attempt}</td>
              <td>{formatDate(a.at)}</td>
              <td>{a.statusCode ?? 'no response'}</td>
              <td>{a.durationMs} ms</td>
              <td>{a.error ?? '—'}</td>
            </tr>
          ))}
        </Table>
      )}
    </li>
  );
}

const outcome = (a: Schemas['WebhookAttemptResponse'] | undefined) =>
  !a ? '' : `${a.statusCode ?? 'no response'} in ${a.durationMs} ms${a.error ? ` (${a.error})` : ''}.`;
