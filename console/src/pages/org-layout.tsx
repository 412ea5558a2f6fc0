import { useQuery } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import { api, unwrap } from '../api';
import { SignOutButton } from '../session';
import { ErrorNote } from '../ui';

export function useOrgId(): string {
  return useParams().orgId!;
}

/** Path parameter of every organization-scoped admin route. */
export function orgPath(orgId: string) {
  return { path: { orgId } };
}

const SECTIONS = [
  ['', 'Overview'],
  ['calls', 'Calls'],
  ['contacts', 'Contacts'],
  ['cases', 'Cases'],
  ['assistants', 'Assistants'],
  ['keys', 'API keys'],
  ['numbers', 'Phone numbers'],
  ['webhooks', 'Webhooks'],
  ['messaging', 'Messaging'],
  ['usage', 'Usage'],
  ['automations', 'Automations'],
  ['profile', 'Profile'],
] as const;

export function OrgLayout() {
  const orgId = useOrgId();
  const org = useQuery({
    queryKey: ['org', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}', { params: orgPath(orgId) })),
  });
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/orgs" className="brand">
          Console
        </Link>
        <span className="org-name">{org.data?.data.name ?? '…'}</span>
        <Link to="/orgs">Switch organization</Link>
        <SignOutButton />
      </header>
      <nav aria-label="Sections" className="sidebar">
        <ul>
          {SECTIONS.map(([path, label]) => (
            <li key={path}>
              <NavLink to={`/orgs/${orgId}${path ? `/${path}` : ''}`} end={path === ''}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content" id="content" tabIndex={-1}>
        {org.isError ? <ErrorNote error={org.error} /> : <Outlet />}
      </main>
    </div>
  );
}
