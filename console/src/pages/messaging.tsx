import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../api';
import { ErrorNote, QueryView, TestBadge } from '../ui';
import { ChatInbox } from './chat-inbox';
import { orgPath, useLivemode, useOrgId, worldParams } from './org-layout';

export function MessagingPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const accounts = useQuery({
    queryKey: ['messaging-accounts', orgId, livemode],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/messaging/accounts', { params: worldParams(orgId, livemode) })),
  });
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
                  </span>{' '}
                  <SyncTemplates accountId={a.id} name={a.verifiedName} />
                  <ChatAgentSettings accountId={a.id} name={a.verifiedName} />
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
      <ChatInbox orgId={orgId} />
    </>
  );
}

/** Replaces the account's templates with WhatsApp's (names, languages, bodies, statuses) and shows the result. */
function SyncTemplates({ accountId, name }: { accountId: string; name: string }) {
  const client = useQueryClient();
  const sync = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/admin/v1/messaging-accounts/{id}/templates/sync', { params: { path: { id: accountId } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['messaging-accounts'] }),
  });
  const result = sync.data?.data;
  return (
    <>
      <button
        type="button"
        aria-label={`Sync templates of ${name}`}
        disabled={sync.isPending}
        onClick={() => sync.mutate()}
      >
        {sync.isPending ? 'Syncing…' : 'Sync templates'}
      </button>
      {sync.error ? <ErrorNote error={sync.error} /> : null}
      {result ? (
        <div role="status" className="templates">
          <p>
            {result.synced} templates synced from WhatsApp{result.removed ? `, ${result.removed} removed` : ''}.
          </p>
          <ul className="rows">
            {result.templates.map((t) => (
              <li key={t.id}>
                <strong>{t.name}</strong> {t.language} <span className="badge">{t.status}</span>{' '}
                <span className="muted">{t.body}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

/** The account's chat agent: on or off, the bot-reply limit and the hand-off keywords (other fields keep defaults). */
function ChatAgentSettings({ accountId, name }: { accountId: string; name: string }) {
  const client = useQueryClient();
  const agent = useQuery({
    queryKey: ['chat-agent', accountId],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/messaging-accounts/{id}/chat-agent', { params: { path: { id: accountId } } })),
  });
  const save = useMutation({
    mutationFn: (body: Schemas['PutChatAgentDto']) =>
      unwrap(api.PUT('/admin/v1/messaging-accounts/{id}/chat-agent', { params: { path: { id: accountId } }, body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['chat-agent', accountId] }),
  });
  const current = agent.data?.data;
  if (!current) return null;
  return (
    <form
      aria-label={`Chat agent of ${name}`}
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        save.mutate({
          caseId: current.caseId,
          assistantConfigId: current.assistantConfigId,
          summary: current.summary,
          enabled: form.get('enabled') === 'on',
          maxBotReplies: Number(form.get('maxBotReplies')),
          handOffKeywords: String(form.get('keywords'))
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean),
        });
      }}
    >
      <label>
        <input type="checkbox" name="enabled" defaultChecked={current.enabled} /> Bot answers
      </label>{' '}
      <label>
        Bot replies before hand-off{' '}
        <input type="number" name="maxBotReplies" min={1} max={50} defaultValue={current.maxBotReplies} />
      </label>{' '}
      <label>
        Hand-off keywords <input name="keywords" defaultValue={current.handOffKeywords.join(', ')} />
      </label>{' '}
      <button type="submit" disabled={save.isPending}>
        Save chat agent
      </button>
      {save.isSuccess ? <span role="status"> Chat agent saved.</span> : null}
      {save.error ? <ErrorNote error={save.error} /> : null}
    </form>
  );
}
