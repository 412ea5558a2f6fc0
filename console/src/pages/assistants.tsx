import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { Field, FormActions, QueryView, formatDate } from '../ui';
import { orgPath, useOrgId } from './org-layout';

type Outbound = Schemas['OutboundAssistantSummaryResponse'];

export function AssistantsPage() {
  const orgId = useOrgId();
  const [editing, setEditing] = useState<Outbound | 'new'>();
  const outbound = useQuery({
    queryKey: ['outbound', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/assistants/outbound', { params: orgPath(orgId) })),
  });
  const inbound = useQuery({
    queryKey: ['inbound', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/assistants/inbound', { params: orgPath(orgId) })),
  });
  return (
    <>
      <h1>Assistants</h1>
      <section className="panel" aria-labelledby="out-h">
        <h2 id="out-h">Outbound</h2>
        <button type="button" onClick={() => setEditing('new')}>
          New outbound assistant
        </button>
        {editing && (
          <AssistantForm
            key={editing === 'new' ? 'new' : editing.id}
            item={editing}
            onDone={() => setEditing(undefined)}
          />
        )}
        <QueryView query={outbound} empty="No outbound assistants yet." isEmpty={(d) => d.data.length === 0}>
          {({ data }) => (
            <ul className="rows">
              {data.map((a) => (
                <li key={a.id}>
                  <strong>{a.name}</strong> {a.isDefault && <span className="badge">default</span>}{' '}
                  <span className="muted">updated {formatDate(a.updatedAt)}</span>
                  <button type="button" className="secondary" onClick={() => setEditing(a)}>
                    Edit {a.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
      <section className="panel" aria-labelledby="in-h">
        <h2 id="in-h">Inbound</h2>
        <QueryView query={inbound} empty="No inbound assistants." isEmpty={(d) => d.data.length === 0}>
          {({ data }) => (
            <ul className="rows">
              {data.map((a) => (
                <li key={a.id}>
                  <strong>{a.name}</strong> <span className="muted">created {formatDate(a.createdAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
    </>
  );
}

function AssistantForm({ item, onDone }: { item: Outbound | 'new'; onDone: () => void }) {
  const orgId = useOrgId();
  const client = useQueryClient();
  const existing = item === 'new' ? undefined : item;
  const [name, setName] = useState(existing?.name ?? '');
  const [systemPrompt, setSystemPrompt] = useState('');
  const [voiceId, setVoiceId] = useState('');
  const [model, setModel] = useState('');
  const save = useMutation({
    mutationFn: () => {
      const changes = {
        name,
        ...(systemPrompt ? { systemPrompt } : {}),
        ...(voiceId ? { voice: { provider: '11labs', voiceId } } : {}),
        ...(model ? { model: { provider: 'openai', model } } : {}),
      };
      if (existing) {
        return unwrap(
          api.PATCH('/admin/v1/organizations/{orgId}/assistants/outbound/{id}', {
            params: { path: { orgId, id: existing.id } },
            body: changes,
          }),
        );
      }
      return unwrap(
        api.POST('/admin/v1/organizations/{orgId}/assistants/outbound', {
          params: orgPath(orgId),
          body: { ...changes, voice: { provider: '11labs', voiceId }, model: { provider: 'openai', model } },
        }),
      );
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['outbound', orgId] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const keep = existing ? 'Leave empty to keep the current value.' : undefined;
  return (
    <form onSubmit={submit} className="panel" aria-label={existing ? 'Edit assistant' : 'New assistant'}>
      <Field label="Name">
        {(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="System prompt" hint={keep}>
        {(id) => (
          <textarea
            id={id}
            rows={4}
            maxLength={50000}
            value={systemPrompt}
            onChange={(e) => setSystemPrompt(e.target.value)}
          />
        )}
      </Field>
      <Field label="Voice id (11labs)" hint={keep}>
        {(id) => (
          <input
            id={id}
            required={!existing}
            maxLength={200}
            value={voiceId}
            onChange={(e) => setVoiceId(e.target.value)}
          />
        )}
      </Field>
      <Field label="Model (openai)" hint={keep}>
        {(id) => (
          <input
            id={id}
            required={!existing}
            maxLength={200}
            value={model}
            onChange={(e) => setModel(e.target.value)}
          />
        )}
      </Field>
      <FormActions saveLabel="Save assistant" busy={save.isPending} error={save.error} onCancel={onDone} />
    </form>
  );
}
