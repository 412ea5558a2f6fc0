import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { PagedView, QueryView, TestBadge, formatDate, usePaged, ExpandButton } from '../ui';
import { ReplyBox } from './reply-box';
import { useLivemode, useOrgId, worldParams } from './org-layout';

export function MessagingPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const [open, setOpen] = useState<string>();
  const accounts = useQuery({
    queryKey: ['messaging-accounts', orgId, livemode],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/messaging/accounts', { params: worldParams(orgId, livemode) })),
  });
  const conversations = usePaged<Schemas['ConversationResponse']>(['conversations', orgId, livemode], (cursor) =>
    unwrap(
      api.GET('/admin/v1/organizations/{orgId}/messaging/conversations', {
        params: { path: { orgId }, query: { cursor, limit: 25, livemode } },
      }),
    ),
  );
  return (
    <>
      <h1>Messaging</h1>
      <section className="panel" aria-labelledby="acc-h">
        <h2 id="acc-h">Accounts</h2>
        <QueryView query={accounts} empty="No messaging account connected." isEmpty={(d) => d.data.length === 0}>
          {({ data }) => (
            <ul className="rows">
              {data.map((a) => (
                <li key={a.id}>
                  <strong>{a.verifiedName}</strong> {a.displayPhoneNumber} <span className="badge">{a.status}</span>{' '}
                  <TestBadge livemode={a.livemode} />{' '}
                  <span className="muted">
                    {a.messagesSent} sent · {a.messagesReceived} received
                  </span>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
      <section className="panel" aria-labelledby="conv-h">
        <h2 id="conv-h">Conversations</h2>
        <PagedView paged={conversations} empty="No conversations yet.">
          {(items) => (
            <ul className="rows">
              {items.map((c) => (
                <li key={c.id}>
                  <ExpandButton open={open === c.id} onToggle={() => setOpen(open === c.id ? undefined : c.id)}>
                    {c.waUserName ?? c.waUserPhone}
                  </ExpandButton>{' '}
                  <TestBadge livemode={c.livemode} />{' '}
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
    </>
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
  });
  return (
    <QueryView query={conversation}>
      {({ data }) => (
        <>
          <ol className="conversation">
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
