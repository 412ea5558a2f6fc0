import type { paths } from './schema';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON request body of an operation. */
export type Body<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

/** The success body of an operation: 200, 201 or 202 (a run started off the request); `undefined` for 204. */
export type Data<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? R extends { 200: infer S }
      ? Json<S>
      : R extends { 201: infer S }
        ? Json<S>
        : R extends { 202: infer S }
          ? Json<S>
          : undefined
    : never;

export interface RequestOptions {
  /** Overrides the automatic `Idempotency-Key` of a create (a UUID per call): pass your own to retry safely. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RequestInit {
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The operation takes an `Idempotency-Key`. */
  idempotent?: boolean;
  options: RequestOptions;
}
