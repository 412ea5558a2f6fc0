import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { Field, PagedView, QueryView, TestBadge, usePaged, ExpandButton } from '../ui';
import { GroupSelect } from './choices';
import { ContactForm } from './contact-form';
import { useLivemode, useOrgId, useWorldPath } from './org-layout';

export function ContactsPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const worldPath = useWorldPath();
  const [search, setSearch] = useState('');
  const [groupId, setGroupId] = useState('');
  const [open, setOpen] = useState<string>();
  const [creating, setCreating] = useState(false);
  const query = { limit: 25, ...(search ? { search } : {}), ...(groupId ? { groupId } : {}) };
  const paged = usePaged<Schemas['ContactListItemResponse']>(['contacts', orgId, livemode, query], (cursor) =>
    unwrap(
      api.GET('/admin/v1/organizations/{orgId}/contacts', {
        params: { path: { orgId }, query: { ...query, cursor, livemode } },
      }),
    ),
  );
  return (
    <>
      <h1>Contacts</h1>
      {creating ? (
        <ContactForm onDone={() => setCreating(false)} />
      ) : (
        <button type="button" onClick={() => setCreating(true)}>
          New contact
        </button>
      )}{' '}
      <Link to={worldPath(`/orgs/${orgId}/contacts/import`)}>Import a CSV file</Link>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search name or phone">
          {(id) => (
            <input id={id} type="search" maxLength={200} value={search} onChange={(e) => setSearch(e.target.value)} />
          )}
        </Field>
        <GroupSelect
          orgId={orgId}
          livemode={livemode}
          label="Group"
          value={groupId}
          onChange={setGroupId}
          none="All contacts"
        />
      </form>
      <PagedView paged={paged} empty="No contacts match.">
        {(contacts) => (
          <ul className="rows">
            {contacts.map((c) => (
              <li key={c.id}>
                <ExpandButton open={open === c.id} onToggle={() => setOpen(open === c.id ? undefined : c.id)}>
                  {c.title}
                </ExpandButton>{' '}
                <TestBadge livemode={c.livemode} />{' '}
                <span className="muted">
                  {c.phone} {c.email ?? ''} {c.tags.map((t) => `#${t}`).join(' ')}
                </span>
                {open === c.id && <ContactFields orgId={orgId} id={c.id} />}
              </li>
            ))}
          </ul>
        )}
      </PagedView>
    </>
  );
}

function ContactFields({ orgId, id }: { orgId: string; id: string }) {
  const livemode = useLivemode();
  const contact = useQuery({
    queryKey: ['contact', orgId, livemode, id],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/contacts/{id}', {
          params: { path: { orgId, id }, query: { livemode } },
        }),
      ),
  });
  return (
    <QueryView query={contact}>
      {({ data }) => (
        <dl className="details">
          <dt>Notes</dt>
          <dd>{data.notes ?? '—'}</dd>
          {Object.entries(data.customFields ?? {}).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v === null ? '—' : String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </QueryView>
  );
}
