import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { ErrorNote, ExpandButton, Field, PagedView, QueryView, TestBadge, formatDate, usePaged } from '../ui';
import { ReplyBox } from './reply-box';
import { useLivemode, worldParams } from './org-layout';

type Status = Schemas['ConversationResponse']['status'];
type Move = 'hand-off' | 'close' | 'reopen';

/**
 * How often the inbox asks again. Polling, not server-sent events: the list and the open thread are two small
 * admin reads TanStack Query already caches, and a refetch every 2 s keeps a new conversation or message on
 * screen within 3 s without a stream for the service to hold open per operator (docs/console.md).
 */
export const INBOX_REFRESH_MS = 2000;

const STATUSES: Array<[Status | '', string]> = [
  ['', 'All'],
  ['active', 'Active (bot answers)'],
  ['handed_off', 'Handed off (a person answers)'],
  ['closed', 'Closed'],
];

/** The moves a conversation in each state offers, as the public routes allow them (422 INVALID_STATE otherwise). */
const MOVES: Record<Status, Array<[Move, string]>> = {
  active: [
    ['hand-off', 'Hand off'],
    ['close', 'Close'],
  ],
  handed_off: [
    ['close', 'Close'],
    ['reopen', 'Reopen'],
  ],
  closed: [['reopen', 'Reopen']],
};

/** The chat inbox: conversations of the world shown, newest activity first, live, filtered by status. */
export function ChatInbox({ orgId }: { orgId: string }) {
  const livemode = useLivemode();
  const [status, setStatus] = useState<Status | ''>('');
  const [open, setOpen] = useState<string>();
  const conversations = usePaged<Schemas['ConversationResponse']>(
    ['conversations', orgId, livemode, status],
    (cursor) =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/messaging/conversations', {
          params: { path: { orgId }, query: { cursor, limit: 25, livemode, ...(status ? { status } : {}) } },
        }),
      ),
    INBOX_REFRESH_MS,
  );
  return (
    <section className="panel" aria-labelledby="conv-h">
      <h2 id="conv-h">Conversations</h2>
      <p className="muted">Updates on its own every {INBOX_REFRESH_MS / 1000} seconds.</p>
      <Field label="Status">
        {(id) => (
          <select id={id} value={status} onChange={(e) => setStatus(e.target.value as Status | '')}>
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <PagedView paged={conversations} empty="No conversations here yet.">
        {(items) => (
          <ul className="rows" aria-label="Conversations">
            {items.map((c) => (
              <li key={c.id}>
                <ExpandButton open={open === c.id} onToggle={() => setOpen(open === c.id ? undefined : c.id)}>
                  {c.waUserName ?? c.waUserPhone}
                </ExpandButton>{' '}
                <TestBadge livemode={c.livemode} /> <span className="badge">{c.status}</span>{' '}
                <span className="muted">
                  {c.messageCount} messages · {c.lastMessagePreview ?? ''}
                </span>
                {open === c.id && <Thread orgId={orgId} id={c.id} />}
              </li>
            ))}
          </ul>
        )}
      </PagedView>
    </section>
  );
}

function Thread({ orgId, id }: { orgId: string; id: string }) {
  const livemode = useLivemode();
  const conversation = useQuery({
    queryKey: ['conversation', orgId, livemode, id],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/messaging/conversations/{id}', {
          params: { path: { orgId, id }, query: { livemode } },
        }),
      ),
    refetchInterval: INBOX_REFRESH_MS,
  });
  return (
    <QueryView query={conversation}>
      {({ data }) => (
        <>
          {data.aiSummary ? <p className="muted">Summary: {data.aiSummary}</p> : null}
          <ConversationMoves orgId={orgId} conversation={data} />
          <ol className="conversation" aria-label={`Messages with ${data.waUserName ?? data.waUserPhone}`}>
            {data.messages.map((m) => (
              <li key={m.id} className={`bubble ${m.direction === 'inbound' ? 'bubble-user' : 'bubble-assistant'}`}>
                <span className="who">
                  {m.senderType} · {formatDate(m.timestamp)} {m.deliveryStatus ? `· ${m.deliveryStatus}` : ''}
                </span>
                <p>{m.text ?? m.mediaCaption ?? `[${m.messageType}]`}</p>
              </li>
            ))}
          </ol>
          <ReplyBox orgId={orgId} conversation={data} />
        </>
      )}
    </QueryView>
  );
}

/** Hand off / Close / Reopen, through the admin twins of the public routes; the list and thread refresh after. */
function ConversationMoves({ orgId, conversation }: { orgId: string; conversation: Schemas['ConversationResponse'] }) {
  const livemode = useLivemode();
  const client = useQueryClient();
  const params = { params: { ...worldParams(orgId, livemode), path: { orgId, id: conversation.id } } };
  const move = useMutation({
    mutationFn: (m: Move) => {
      if (m === 'hand-off')
        return unwrap(api.POST('/admin/v1/organizations/{orgId}/messaging/conversations/{id}/hand-off', params));
      if (m === 'close')
        return unwrap(api.POST('/admin/v1/organizations/{orgId}/messaging/conversations/{id}/close', params));
      return unwrap(api.POST('/admin/v1/organizations/{orgId}/messaging/conversations/{id}/reopen', params));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['conversations', orgId] });
      void client.invalidateQueries({ queryKey: ['conversation', orgId, livemode, conversation.id] });
    },
  });
  const who = conversation.waUserName ?? conversation.waUserPhone;
  return (
    <div className="actions" role="group" aria-label={`Move the conversation with ${who}`}>
      {MOVES[conversation.status].map(([m, label]) => (
        <button key={m} type="button" disabled={move.isPending} onClick={() => move.mutate(m)}>
          {label}
        </button>
      ))}
      {move.error ? <ErrorNote error={move.error} /> : null}
    </div>
  );
}
