import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useState } from 'react';
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

/**
 * The world the console is looking at (the Test / Live switch in the top bar): every per-world admin route is
 * asked with it (`worldParams`), and every query key holds it, so each list, count and action shows one world.
 */
const WorldContext = createContext<{ livemode: boolean; show: (livemode: boolean) => void }>({
  livemode: true,
  show: () => undefined,
});

export function useLivemode(): boolean {
  return useContext(WorldContext).livemode;
}

/** Turns the switch (the test-call button shows the test world, where its call is). */
export function useShowWorld(): (livemode: boolean) => void {
  return useContext(WorldContext).show;
}

/** Path and switch of a per-world admin route (calls, contacts, campaigns, webhooks, messaging, usage history). */
export function worldParams(orgId: string, livemode: boolean) {
  return { path: { orgId }, query: { livemode } };
}

const SECTIONS = [
  ['', 'Overview'],
  ['calls', 'Calls'],
  ['contacts', 'Contacts'],
  ['do-not-call', 'Do not call'],
  ['destinations', 'Destinations'],
  ['cases', 'Cases'],
  ['tools', 'Tools'],
  ['assistants', 'Assistants'],
  ['keys', 'API keys'],
  ['numbers', 'Phone numbers'],
  ['webhooks', 'Webhooks'],
  ['messaging', 'Messaging'],
  ['usage', 'Usage'],
  ['campaigns', 'Campaigns'],
  ['automations', 'Automations'],
  ['profile', 'Profile'],
] as const;

export function OrgLayout() {
  const orgId = useOrgId();
  const [livemode, setLivemode] = useState(true);
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
        <div className="world-switch" role="group" aria-label="Data shown">
          <button type="button" aria-pressed={livemode} onClick={() => setLivemode(true)}>
            Live
          </button>
          <button type="button" aria-pressed={!livemode} onClick={() => setLivemode(false)}>
            Test
          </button>
        </div>
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
      <main className={livemode ? 'content' : 'content test-world'} id="content" tabIndex={-1}>
        {!livemode && (
          <p className="world-banner" role="status">
            Test data: what test API keys and test messaging accounts made. Live data is hidden.
          </p>
        )}
        <WorldContext.Provider value={{ livemode, show: setLivemode }}>
          {org.isError ? <ErrorNote error={org.error} /> : <Outlet />}
        </WorldContext.Provider>
      </main>
    </div>
  );
}
