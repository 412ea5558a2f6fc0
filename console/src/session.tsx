import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { api, setCsrfToken, unwrap, whenSignedOut } from './api';
import { ErrorNote, Field } from './ui';

const SESSION_KEY = ['session'];

function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      const session = await unwrap(api.GET('/admin/v1/session'));
      setCsrfToken(session.data.csrfToken);
      return session.data;
    },
    retry: false,
    staleTime: Infinity,
  });
}

/** Pages behind sign-in: without a live session (or once the API answers 401) the operator goes to sign-in. */
export function RequireSession() {
  const session = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    whenSignedOut(() => {
      setCsrfToken(undefined);
      client.clear();
      void navigate('/sign-in', { replace: true });
    });
  }, [client, navigate]);
  if (session.isPending)
    return (
      <p aria-busy="true" className="muted page">
        Loading…
      </p>
    );
  if (session.isError) return <Navigate to="/sign-in" replace />;
  return <Outlet />;
}

/** Reads a one-time `#token=` the demo prints (development convenience), then removes it from the address bar. */
function tokenFromFragment(): string | undefined {
  const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (!match) return undefined;
  history.replaceState(null, '', window.location.pathname);
  return decodeURIComponent(match[1]);
}

export function SignInPage() {
  const [token, setToken] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const signIn = useMutation({
    mutationFn: async (adminToken: string) => unwrap(api.POST('/admin/v1/session', { body: { token: adminToken } })),
    onSuccess: (session) => {
      setCsrfToken(session.data.csrfToken);
      client.setQueryData(SESSION_KEY, session.data);
      void navigate('/orgs', { replace: true });
    },
  });
  useEffect(() => {
    const fromFragment = tokenFromFragment();
    if (fromFragment) signIn.mutate(fromFragment);
    // Once, on arrival: the demo link carries the token in the fragment, which never reaches the server.
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(token);
  };
  return (
    <main className="sign-in">
      <h1>Voice Calling console</h1>
      <form onSubmit={submit}>
        <Field
          label="Admin token"
          hint="The server's ADMIN_TOKEN. It is exchanged for a session and never stored here."
        >
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              maxLength={1000}
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {signIn.isError && <ErrorNote error={signIn.error} />}
      </form>
    </main>
  );
}

/** After this page's session ended: forget it and go to sign-in. */
function useLeave() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return () => {
    setCsrfToken(undefined);
    client.clear();
    void navigate('/sign-in', { replace: true });
  };
}

export function SignOutButton() {
  const leave = useLeave();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/session')),
    onSettled: leave,
  });
  return (
    <button type="button" className="secondary" onClick={() => signOut.mutate()}>
      Sign out
    </button>
  );
}

/**
 * Ends every console session, this one included (POST /admin/v1/sessions/revoke-all): for a lost laptop or a
 * departed operator, without changing ADMIN_TOKEN. Asks once before doing it.
 */
export function SignOutEveryoneButton() {
  const leave = useLeave();
  const [confirming, setConfirming] = useState(false);
  const revokeAll = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/sessions/revoke-all')),
    onSuccess: leave,
  });
  if (!confirming) {
    return (
      <button type="button" className="secondary" onClick={() => setConfirming(true)}>
        Sign out everyone
      </button>
    );
  }
  return (
    <span role="group" aria-label="Sign out everyone">
      <button type="button" className="danger" onClick={() => revokeAll.mutate()} disabled={revokeAll.isPending}>
        End all sessions
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {revokeAll.isError && <ErrorNote error={revokeAll.error} />}
    </span>
  );
}
