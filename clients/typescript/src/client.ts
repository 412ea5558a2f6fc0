import { randomUUID } from 'node:crypto';
import { VoiceCallingError } from './errors';
import { Operations } from './operations';
import type { RequestInit } from './types';

export interface ClientOptions {
  /** e.g. https://api.example.com (no trailing `/api/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** A page as every list operation returns it. */
interface Page<T> {
  data: T[];
  pagination: { cursor: string | null; hasMore: boolean };
}

/** The Voice Calling API: one typed method per operation (see Operations), errors as VoiceCallingError. */
export class VoiceCallingClient extends Operations {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly config: ClientOptions) {
    super();
    this.fetchImpl = config.fetch ?? fetch;
  }

  /**
   * Every item of a paginated list, following `pagination.cursor` while `hasMore`:
   * `for await (const call of client.iterate((q) => client.listCalls(q), { status: 'ended' }))`.
   * (Pass `{}` for no filter.)
   */
  async *iterate<const Q extends object, T>(
    list: (query: NoInfer<Q> & { cursor?: string }) => Promise<Page<T>>,
    query: Q,
  ): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const page = await list({ ...query, ...(cursor ? { cursor } : {}) });
      yield* page.data;
      cursor = page.pagination.hasMore ? (page.pagination.cursor ?? undefined) : undefined;
    } while (cursor);
  }

  protected async request(method: string, path: string, init: RequestInit): Promise<any> {
    const url = new URL(
      path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(init.path?.[name] ?? '')),
      this.config.baseUrl,
    );
    for (const [key, value] of Object.entries(init.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
    }
    const headers: Record<string, string> = { 'x-api-key': this.config.apiKey, ...init.options.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    // Creates are safe to retry: a key per call unless the caller brings its own (to retry one request).
    if (init.idempotent) headers['idempotency-key'] = init.options.idempotencyKey ?? randomUUID();
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: method.toUpperCase(),
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.options.signal,
      });
    } catch (error) {
      throw new VoiceCallingError(0, 'NETWORK_ERROR', (error as Error).message, null);
    }
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    if (response.ok) return body;
    const error = body?.error ?? {};
    throw new VoiceCallingError(
      response.status,
      error.code ?? 'INTERNAL_ERROR',
      error.message ?? response.statusText,
      response.headers.get('x-request-id'),
      error.details,
    );
  }
}
