import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api';
import { SignOutButton, SignOutEveryoneButton } from '../session';
import { ErrorNote, Field, PagedView, formatDate, usePaged } from '../ui';

export function OrganizationsPage() {
  const paged = usePaged(['orgs'], (cursor) =>
    unwrap(api.GET('/admin/v1/organizations', { params: { query: { cursor, limit: 25 } } })),
  );
  return (
    <div className="page">
      <header className="topbar">
        <span className="brand">Console</span>
        <SignOutEveryoneButton />
        <SignOutButton />
      </header>
      <main className="content narrow">
        <h1>Organizations</h1>
        <CreateOrganization />
        <PagedView paged={paged} empty="No organizations yet. Create the first one above.">
          {(orgs) => (
            <ul className="cards">
              {orgs.map((org) => (
                <li key={org.id}>
                  <Link to={`/orgs/${org.id}`}>{org.name}</Link>
                  <span className="muted"> · created {formatDate(org.createdAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </PagedView>
      </main>
    </div>
  );
}

function CreateOrganization() {
  const [name, setName] = useState('');
  const [contactEmail, setContactEmail] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations', {
          body: { name, profile: true, ...(contactEmail ? { contactEmail } : {}) },
        }),
      ),
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: ['orgs'] });
      void navigate(`/orgs/${created.data.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} className="inline-form" aria-label="Create organization">
      <Field label="Name">
        {(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Contact email (optional)">
        {(id) => <input id={id} type="email" value={contactEmail} onChange={(e) => setContactEmail(e.target.value)} />}
      </Field>
      <button type="submit" disabled={create.isPending}>
        Create organization
      </button>
      {create.isError && <ErrorNote error={create.error} />}
    </form>
  );
}
