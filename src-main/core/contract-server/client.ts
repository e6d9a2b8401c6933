import type { z } from 'zod';
import { errorEnvelopeSchema, okCode } from '../../../src-shared/api/envelope';
import { endpoints, type EndpointBody, type EndpointName, type EndpointQuery, type EndpointResponse } from '../../../src-shared/api/endpoints';
import { AppFailure } from '../../../src-shared/errors';

// Talks to the contract server through the endpoint map of src-shared. Every answer is checked
// against the endpoint's response schema: a server of another version cannot hand the core a
// shape it does not understand.

export interface ContractServerRequest<N extends EndpointName> {
  /** The path's `:name` parts. */
  params?: z.input<(typeof endpoints)[N]['params']>;
  query?: EndpointQuery<N>;
  body?: EndpointBody<N>;
  /** Read at send time and never stored with the request. */
  token?: string;
}

export interface ContractServerClient {
  readonly baseUrl: string;
  call<N extends EndpointName>(name: N, request?: ContractServerRequest<N>): Promise<EndpointResponse<N>>;
}

export interface ContractServerClientOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The path with each `:name` filled from `params` (encoded: an id never changes the path). */
function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new AppFailure('bad_request', `the path ${path} needs ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createContractServerClient(baseUrl: string, options: ContractServerClientOptions = {}): ContractServerClient {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    baseUrl,
    async call(name, request = {}) {
      const endpoint = endpoints[name];
      const headers: Record<string, string> = { accept: 'application/json' };
      if (request.token) headers.authorization = `Bearer ${request.token}`;
      const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
      if (hasBody) headers['content-type'] = 'application/json';
      const path = fillPath(endpoint.path, request.params as Record<string, unknown> | undefined);
      let response: Response;
      try {
        response = await send(`${baseUrl}${path}${queryString(request.query as Record<string, unknown>)}`, {
          method: endpoint.method,
          headers,
          body: hasBody ? JSON.stringify(request.body ?? {}) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        throw new AppFailure('server_unreachable');
      }
      let payload: unknown;
      try {
        payload = await response.json();
      } catch {
        throw new AppFailure(response.status >= 500 ? 'server_error' : 'server_unreachable', `The contract server answered ${response.status} without a readable body.`);
      }
      if (response.ok && (payload as { code?: unknown })?.code === okCode) {
        const data = (endpoint.response as z.ZodType).safeParse((payload as { data: unknown }).data);
        if (!data.success) throw new AppFailure('server_error', 'The contract server sent an answer this app does not understand.');
        return data.data as EndpointResponse<typeof name>;
      }
      const failure = errorEnvelopeSchema.safeParse(payload);
      if (failure.success) throw new AppFailure(failure.data.code, failure.data.message, failure.data.issues);
      throw new AppFailure('server_error', `The contract server answered ${response.status}.`);
    },
  };
}
