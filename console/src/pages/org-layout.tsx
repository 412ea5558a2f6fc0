import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { Link, NavLink, Outlet, useParams, useSearchParams } from 'react-router';
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
 * It lives in the URL (`?world=test`; live has no parameter), so a reload, a shared link and the back button
 * keep it; links inside an organization carry it (`useWorldPath`).
 */
const WorldContext = createContext<{ livemode: boolean }>({ livemode: true });

export function useLivemode(): boolean {
  return useContext(WorldContext).livemode;
}

/** The URL parameter of the test world (`?world=test`). */
const WORLD_PARAM = 'world';

/** `path` in a world: the test world's carries `?world=test`. */
export function worldPath(livemode: boolean, path: string): string {
  return livemode ? path : `${path}?${WORLD_PARAM}=test`;
}

/** A path inside the organization with the world shown now, for links and navigation. */
export function useWorldPath(): (path: string) => string {
  const { livemode } = useContext(WorldContext);
  return (path) => worldPath(livemode, path);
}

/** Path and switch of a per-world admin route (calls, contacts, campaigns, webhooks, messaging, usage history). */
export function worldParams(orgId: string, livemode: boolean) {
  return { path: { orgId }, query: { livemode } };
}

const SECTIONS = [
  ['', 'Overview'],
  ['calls', 'Calls'],
  ['answer-detection', 'Answer detection'],
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
  const [search, setSearch] = useSearchParams();
  const livemode = search.get(WORLD_PARAM) !== 'test';
  // A new history entry per switch, so the back button returns to the world shown before.
  const setLivemode = (live: boolean) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (live) next.delete(WORLD_PARAM);
      else next.set(WORLD_PARAM, 'test');
      return next;
    });
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
              <NavLink to={worldPath(livemode, `/orgs/${orgId}${path ? `/${path}` : ''}`)} end={path === ''}>
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
        <WorldContext.Provider value={{ livemode }}>
          {org.isError ? <ErrorNote error={org.error} /> : <Outlet />}
        </WorldContext.Provider>
      </main>
    </div>
  );
}
