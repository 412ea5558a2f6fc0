import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { createApiKeyDtoScopesValues } from '../generated/admin';
import { ConfirmButton, ErrorNote, Field, PagedView, ShownOnce, formatDate, usePaged, Table } from '../ui';
import { orgPath, useOrgId } from './org-layout';

type Scope = Schemas['CreateApiKeyDto']['scopes'][number];
// The scope list comes from openapi/admin.yaml (generated with --enum-values), so a new scope appears here by itself.
const SCOPES = createApiKeyDtoScopesValues;

export function ApiKeysPage() {
  const orgId = useOrgId();
  const client = useQueryClient();
  const [created, setCreated] = useState<string>();
  const paged = usePaged<Schemas['ApiKeyResponse']>(['keys', orgId], (cursor) =>
    unwrap(
      api.GET('/admin/v1/organizations/{orgId}/api-keys', {
        params: { ...orgPath(orgId), query: { cursor, limit: 25 } },
      }),
    ),
  );
  const revoke = useMutation({
    mutationFn: (keyId: string) =>
      unwrap(api.POST('/admin/v1/api-keys/{keyId}/revoke', { params: { path: { keyId } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['keys', orgId] }),
  });
  return (
    <>
      <h1>API keys</h1>
      <CreateKey
        onCreated={(key) => {
          setCreated(key);
          void client.invalidateQueries({ queryKey: ['keys', orgId] });
        }}
      />
      {created && <ShownOnce label="New API key." value={created} />}
      {revoke.isError && <ErrorNote error={revoke.error} />}
      <PagedView paged={paged} empty="No keys yet.">
        {(keys) => (
          <Table headers={['Name', 'Key', 'Environment', 'Scopes', 'Last used', 'Expires', 'State']}>
            {keys.map((k) => (
              <tr key={k.id} data-testid={`key-${k.id}`}>
                <td>{k.name}</td>
                <td>
                  <code>{k.hint}…</code>
                </td>
                <td>{k.environment}</td>
                <td>{k.scopes.join(', ')}</td>
                <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'never'}</td>
                <td>{k.expiresAt ? formatDate(k.expiresAt) : 'never'}</td>
                <td>
                  {k.revokedAt ? (
                    <span className="badge badge-error">revoked</span>
                  ) : (
                    <ConfirmButton
                      label="Revoke"
                      confirmLabel={`Revoke ${k.name}? Requests with it fail at once.`}
                      busy={revoke.isPending}
                      onConfirm={() => revoke.mutate(k.id)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </PagedView>
    </>
  );
}

function CreateKey({ onCreated }: { onCreated: (key: string) => void }) {
  const orgId = useOrgId();
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'test'>('live');
  const [expires, setExpires] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['*']);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/api-keys', {
          params: { path: { orgId } },
          body: {
            scopes,
            environment,
            ...(name ? { name } : {}),
            ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
          },
        }),
      ),
    onSuccess: (result) => {
      setName('');
      onCreated(result.data.key);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (scope: Scope) =>
    setScopes((current) => (current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope]));
  return (
    <form onSubmit={submit} className="panel" aria-label="Create API key">
      <div className="inline-form">
        <Field label="Key name">
          {(id) => <input id={id} maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Environment">
          {(id) => (
            <select id={id} value={environment} onChange={(e) => setEnvironment(e.target.value as 'live' | 'test')}>
              <option value="live">live</option>
              <option value="test">test</option>
            </select>
          )}
        </Field>
        <Field label="Expires (optional)">
          {(id) => <input id={id} type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
      </div>
      <fieldset className="scopes">
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope}>
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />{' '}
            {scope === '*' ? '* (all)' : scope}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending || scopes.length === 0}>
        Create key
      </button>
      {create.isError && <ErrorNote error={create.error} />}
    </form>
  );
}
