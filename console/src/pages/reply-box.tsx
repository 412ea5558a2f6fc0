import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { templatePlaceholders } from '../../../src/modules/messaging/template-placeholders';
import { api, unwrap, type Schemas } from '../api';
import { ErrorNote, Field } from '../ui';
import { useLivemode } from './org-layout';

type Conversation = Schemas['ConversationDetailResponse'];
type Body = Schemas['SendTextMessageDto'] | Schemas['SendTemplateMessageDto'];

/**
 * A reply in a conversation. Inside the 24-hour window (after the user's last message) it is free text; outside
 * it only an approved template of the conversation's account may be sent, so the box offers those, with a field
 * per placeholder (read from the body with the service's own parser). The API decides in the end: a window that
 * closed meanwhile answers SESSION_EXPIRED, shown as it is.
 */
export function ReplyBox({ orgId, conversation }: { orgId: string; conversation: Conversation }) {
  const livemode = useLivemode();
  const client = useQueryClient();
  const open = conversation.sessionExpiresAt !== null && new Date(conversation.sessionExpiresAt) > new Date();
  const [text, setText] = useState('');
  const [templateKey, setTemplateKey] = useState('');
  const [variables, setVariables] = useState<Record<string, string>>({});
  const templates = useQuery({
    queryKey: ['templates', orgId, livemode, conversation.integrationId],
    enabled: !open,
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/messaging/accounts/{id}/templates', {
          params: { path: { orgId, id: conversation.integrationId }, query: { livemode } },
        }),
      ),
  });
  const template = templates.data?.data.find((t) => `${t.name}|${t.language}` === templateKey);
  const send = useMutation({
    mutationFn: (body: Body) =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/messaging/messages', {
          params: { path: { orgId }, query: { livemode } },
          body,
        }),
      ),
    onSuccess: () => {
      setText('');
      setVariables({});
      void client.invalidateQueries({ queryKey: ['conversation', orgId, livemode, conversation.id] });
      void client.invalidateQueries({ queryKey: ['conversations', orgId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (open) send.mutate({ type: 'text', conversationId: conversation.id, text });
    else if (template)
      send.mutate({
        type: 'template',
        conversationId: conversation.id,
        templateName: template.name,
        templateLanguage: template.language,
        variables,
      });
  };
  return (
    <form
      className="reply"
      onSubmit={submit}
      aria-label={`Reply to ${conversation.waUserName || conversation.waUserPhone}`}
    >
      {open ? (
        <Field
          label="Reply"
          hint={`Free text until ${new Date(conversation.sessionExpiresAt!).toLocaleString()} (24 hours after their last message); at most 4096 characters.`}
        >
          {(id) => (
            <textarea
              id={id}
              required
              maxLength={4096}
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </Field>
      ) : (
        <>
          <p className="muted">
            The 24-hour window is closed: only an approved template can be sent until they write again.
          </p>
          <Field label="Template">
            {(id) => (
              <select
                id={id}
                required
                value={templateKey}
                onChange={(e) => {
                  setTemplateKey(e.target.value);
                  setVariables({});
                }}
              >
                <option value="">
                  {templates.data?.data.length === 0 ? 'No approved template' : 'Choose a template'}
                </option>
                {templates.data?.data.map((t) => (
                  <option key={t.id} value={`${t.name}|${t.language}`}>
                    {t.name} ({t.language})
                  </option>
                ))}
              </select>
            )}
          </Field>
          {template && <p className="muted">{template.body}</p>}
          {template &&
            templatePlaceholders(template.body).map((name) => (
              <Field key={name} label={`Value of {{${name}}}`}>
                {(id) => (
                  <input
                    id={id}
                    required
                    maxLength={1024}
                    value={variables[name] ?? ''}
                    onChange={(e) => setVariables({ ...variables, [name]: e.target.value })}
                  />
                )}
              </Field>
            ))}
          {templates.isError && <ErrorNote error={templates.error} />}
        </>
      )}
      <button type="submit" disabled={send.isPending || (!open && !template)}>
        {open ? 'Send reply' : 'Send template'}
      </button>
      {send.isSuccess && <p role="status">Sent.</p>}
      {send.isError && <ErrorNote error={send.error} />}
    </form>
  );
}
