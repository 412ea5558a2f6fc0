import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { Field, FormActions, PagedView, formatDate, usePaged } from '../ui';
import { CaseVariablesFields } from './case-variables';
import { orgPath, useOrgId, useWorldPath } from './org-layout';

type CaseItem = Schemas['CaseListItemResponse'];

export function CasesPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const [editing, setEditing] = useState<CaseItem | 'new'>();
  const paged = usePaged<CaseItem>(['cases', orgId], (cursor) =>
    unwrap(
      api.GET('/admin/v1/organizations/{orgId}/cases', { params: { ...orgPath(orgId), query: { cursor, limit: 25 } } }),
    ),
  );
  return (
    <>
      <h1>Cases</h1>
      <button type="button" onClick={() => setEditing('new')}>
        New case
      </button>
      {editing && (
        <CaseForm key={editing === 'new' ? 'new' : editing.id} item={editing} onDone={() => setEditing(undefined)} />
      )}
      <PagedView paged={paged} empty="No cases yet.">
        {(cases) => (
          <ul className="rows">
            {cases.map((c) => (
              <li key={c.id}>
                <strong>
                  <Link to={worldPath(`/orgs/${orgId}/cases/${c.id}`)}>{c.title}</Link>
                </strong>{' '}
                <span className="muted">updated {formatDate(c.updatedAt)}</span>
                <p>{c.firstMessage ?? c.description ?? ''}</p>
                <button type="button" className="secondary" onClick={() => setEditing(c)}>
                  Edit {c.title}
                </button>
              </li>
            ))}
          </ul>
        )}
      </PagedView>
    </>
  );
}

function CaseForm({ item, onDone }: { item: CaseItem | 'new'; onDone: () => void }) {
  const orgId = useOrgId();
  const client = useQueryClient();
  const existing = item === 'new' ? undefined : item;
  const [title, setTitle] = useState(existing?.title ?? '');
  const [prompt, setPrompt] = useState('');
  const [firstMessage, setFirstMessage] = useState(existing?.firstMessage ?? '');
  // Set on a new case only: an edit leaves the case's variables as they are (PATCH without `variables`).
  const [variables, setVariables] = useState<Schemas['CaseVariableDto'][]>([]);
  const save = useMutation({
    mutationFn: () => {
      const body = { title, ...(prompt ? { prompt } : {}), ...(firstMessage ? { firstMessage } : {}) };
      return existing
        ? unwrap(
            api.PATCH('/admin/v1/organizations/{orgId}/cases/{id}', {
              params: { path: { orgId, id: existing.id } },
              body,
            }),
          )
        : unwrap(
            api.POST('/admin/v1/organizations/{orgId}/cases', {
              params: orgPath(orgId),
              body: { ...body, prompt, ...(variables.length ? { variables } : {}) },
            }),
          );
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['cases', orgId] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="panel" aria-label={existing ? 'Edit case' : 'New case'}>
      <Field label="Title">
        {(id) => <input id={id} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      <Field label="Prompt" hint={existing ? 'Leave empty to keep the current prompt.' : undefined}>
        {(id) => (
          <textarea
            id={id}
            required={!existing}
            maxLength={50000}
            rows={4}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
          />
        )}
      </Field>
      <Field label="First message">
        {(id) => (
          <input id={id} maxLength={1000} value={firstMessage} onChange={(e) => setFirstMessage(e.target.value)} />
        )}
      </Field>
      {!existing && <CaseVariablesFields value={variables} onChange={setVariables} />}
      <FormActions saveLabel="Save case" busy={save.isPending} error={save.error} onCancel={onDone} />
    </form>
  );
}
