import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/admin';

export type Schemas = components['schemas'];

/** The CSRF token of the current session: kept in memory only, recovered from GET /admin/v1/session on reload. */
let csrfToken: string | undefined;
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token;
};

/** Called when the API answers 401 (session expired or revoked): the app goes back to sign-in. */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const session: Middleware = {
  onRequest({ request }) {
    if (!SAFE.has(request.method) && csrfToken) request.headers.set('X-Console-CSRF', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !request.url.endsWith('/admin/v1/session')) onSignedOut();
    return response;
  },
};

/** Typed from openapi/admin.yaml (generated into ./generated/admin.ts by `npm run build`). */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(session);

/** One field the API refused (`details` of a 400 VALIDATION_ERROR). */
interface FieldProblem {
  field: string;
  message: string;
}

/** An error answer of the API: the envelope's code and message, shown as they are. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
  }

  /** What the API said about `field` or anything inside it (`destinations.0.number` is about `destinations`). */
  about(field: string): string | undefined {
    const said = this.details.filter((d) => d.field === field || d.field.startsWith(`${field}.`));
    return said.length ? said.map((d) => d.message).join('; ') : undefined;
  }
}

/** The API's words about one field of a failed save, for the form to show beside that field. */
export const problemWith = (error: unknown, field: string): string | undefined =>
  error instanceof ApiFailure ? error.about(field) : undefined;

interface Envelope {
  error?: { code?: string; message?: string; details?: FieldProblem[] };
}

/** The `data` of a success, or an ApiFailure carrying the envelope's message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const envelope = (error ?? {}) as Envelope;
    throw new ApiFailure(
      response.status,
      envelope.error?.code ?? 'HTTP_' + response.status,
      envelope.error?.message ?? `Request failed with status ${response.status}`,
      envelope.error?.details ?? [],
    );
  }
  return data as T;
}
