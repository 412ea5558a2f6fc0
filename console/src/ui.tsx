import { useInfiniteQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { ApiFailure } from './api';

export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
export const formatDay = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString() : '—');

/** The error envelope's message, as the API wrote it. */
export function ErrorNote({ error, listDetails = false }: { error: unknown; listDetails?: boolean }) {
  const message = error instanceof ApiFailure ? `${error.message} (${error.code})` : String(error);
  // Where the form has no field to show a problem beside (a campaign's refused rows), each is listed.
  const details = listDetails && error instanceof ApiFailure ? error.details : [];
  if (!details.length) {
    return (
      <p role="alert" className="error">
        {message}
      </p>
    );
  }
  return (
    <div role="alert">
      <p className="error">{message}</p>
      <ul className="error error-details" data-testid="error-details">
        {details.map((d) => (
          <li key={d.field}>
            {d.field}: {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What shows while something loads: a query's data, or a page's code (the router's HydrateFallback). */
export function Loading() {
  return (
    <p aria-busy="true" className="muted">
      Loading…
    </p>
  );
}

/** The loading or error state of a query, or null once it has data. */
function pendingState(query: { isPending: boolean; isError: boolean; error: unknown }): ReactNode | null {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorNote error={query.error} />;
  return null;
}

/** Loading, error and empty states for one query; children render the data. */
export function QueryView<T>({
  query,
  empty,
  isEmpty,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'isPending' | 'isError' | 'error' | 'data'>;
  empty?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const pending = pendingState(query);
  if (pending) return pending;
  const data = query.data as T;
  if (empty && (isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0)) {
    return <p className="empty">{empty}</p>;
  }
  return <>{children(data)}</>;
}

interface PageOf<T> {
  data: T[];
  pagination: { cursor?: string | null; hasMore: boolean };
}

/** A cursor-paginated list: pages follow `pagination.cursor` with a "Load more" button. */
export function usePaged<T>(
  key: QueryKey,
  load: (cursor: string | undefined) => Promise<PageOf<T>>,
  refetchMs?: number,
) {
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.pagination.hasMore ? (last.pagination.cursor ?? undefined) : undefined),
    refetchInterval: refetchMs,
  });
  const items = query.data?.pages.flatMap((p) => p.data) ?? [];
  return { query, items };
}

export function LoadMore({ query }: { query: ReturnType<typeof usePaged>['query'] }) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void query.fetchNextPage()}
      disabled={query.isFetchingNextPage}
    >
      {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
    </button>
  );
}

export function PagedView<T>({
  paged,
  empty,
  children,
}: {
  paged: { query: ReturnType<typeof usePaged>['query']; items: T[] };
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  const { query, items } = paged;
  const pending = pendingState(query);
  if (pending) return pending;
  if (items.length === 0) return <p className="empty">{empty}</p>;
  return (
    <>
      {children(items)}
      <LoadMore query={query} />
    </>
  );
}

/**
 * A labelled form control; the label is tied to the control for screen readers and clicks. `problem` is what the
 * API said about this field when it refused a save (see `problemWith`), shown under it.
 */
export function Field({
  label,
  children,
  hint,
  problem,
}: {
  label: string;
  hint?: string;
  problem?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && <small className="muted">{hint}</small>}
      {problem && (
        <small className="field-problem" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}

/**
 * A destructive action asks once more, in place (keyboard-reachable, no window.confirm). `yesLabel` and `noLabel`
 * name the two answers when "Yes, …" / "Cancel" would be ambiguous (cancelling a campaign).
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  busy,
  yesLabel = `Yes, ${label.toLowerCase()}`,
  noLabel = 'Cancel',
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  yesLabel?: string;
  noLabel?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={confirmLabel}>
      <span>{confirmLabel}</span>
      <button type="button" className="danger" disabled={busy} onClick={onConfirm} autoFocus>
        {yesLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        {noLabel}
      </button>
    </span>
  );
}

/** Marks a row of the test world (`livemode: false`); live rows carry no mark. */
export function TestBadge({ livemode }: { livemode: boolean }) {
  return livemode ? null : <span className="badge badge-test">Test</span>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

/** A secret shown once, with a copy button. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>{label}</strong> It is shown this once: copy it now.
      </p>
      <code data-testid="secret-value">{value}</code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard.writeText(value).then(() => setCopied(true));
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** Created-from / created-to filters on a list; empty means unbounded. */
export function DateRangeFields({
  from,
  to,
  onFrom,
  onTo,
  labels = ['From', 'To'],
}: {
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
  labels?: [string, string];
}) {
  return (
    <>
      <Field label={labels[0]}>
        {(id) => <input id={id} type="datetime-local" value={from} onChange={(e) => onFrom(e.target.value)} />}
      </Field>
      <Field label={labels[1]}>
        {(id) => <input id={id} type="datetime-local" value={to} onChange={(e) => onTo(e.target.value)} />}
      </Field>
    </>
  );
}

/** The ISO bounds of a date range filter, only those set. */
export const rangeQuery = (from: string, to: string) => ({
  ...(from ? { from: new Date(from).toISOString() } : {}),
  ...(to ? { to: new Date(to).toISOString() } : {}),
});

/** Save and cancel for an edit form, with the save's error. */
export function FormActions({
  saveLabel,
  busy,
  error,
  onCancel,
}: {
  saveLabel: string;
  busy: boolean;
  error: unknown;
  onCancel: () => void;
}) {
  return (
    <>
      <button type="submit" disabled={busy}>
        {saveLabel}
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}

/** A row title that opens and closes the row's details. */
export function ExpandButton({
  open,
  onToggle,
  children,
}: {
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="link" aria-expanded={open} onClick={onToggle}>
      {children}
    </button>
  );
}

/**
 * A table with its column headers; rows are the children. On a narrow screen it scrolls sideways, so its wrapper
 * is a named, focusable region: keyboard users can scroll it too.
 */
export function Table({
  headers,
  testId,
  label = 'Scrollable table',
  children,
}: {
  headers: string[];
  testId?: string;
  label?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table data-testid={testId}>
        <thead>
          <tr>
            {headers.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A short explanation next to a figure: shown on hover and on keyboard focus of its "?" button, and read by screen
 * readers as the button's description.
 */
export function Tip({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <span className="tip">
      <button type="button" className="tip-button" aria-label={label} aria-describedby={id}>
        ?
      </button>
      <span role="tooltip" id={id} className="tip-text">
        {children}
      </span>
    </span>
  );
}
