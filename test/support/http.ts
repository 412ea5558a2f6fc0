import { ContractViolation, adminApiContract, openApiContract } from './openapi-contract';

/**
 * A tiny JSON client over fetch: what a real integrator's code does. Every response to a documented operation
 * is checked against the committed OpenAPI document (status, body schema, error code) and a mismatch throws, so
 * every end-to-end test is also a contract test.
 */
export interface HttpResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as-is (a string) or JSON-encoded (anything else). */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  withHeaders(headers: Record<string, string>): HttpClient {
    return new HttpClient(this.baseUrl, { ...this.defaultHeaders, ...headers });
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    // openapi/admin.yaml holds the admin API and the health checks (src/bootstrap/openapi-document.ts).
    const inAdminDocument = url.pathname.startsWith('/admin/') || url.pathname.startsWith('/health/');
    const contract = inAdminDocument ? adminApiContract() : openApiContract();
    const problems = contract.check(
      method,
      url.pathname,
      response.status,
      parsed,
      response.headers.get('content-type'),
    );
    if (problems.length > 0) throw new ContractViolation(problems, parsed);
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
