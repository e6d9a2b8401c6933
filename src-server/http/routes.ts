import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { okCode } from '../../src-shared/api/envelope';
import { endpoints, type EndpointName, type EndpointResponse, type Endpoints } from '../../src-shared/api/endpoints';
import { AppFailure, validationFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';

// Routes are registered from the shared `endpoints` map: method, path and the zod schemas of
// query and body come from there, and `Handlers` demands one handler per endpoint, so an
// endpoint cannot be served without its schemas or be forgotten.

export interface RequestContext<N extends EndpointName> {
  params: z.output<Endpoints[N]['params']>;
  query: z.output<Endpoints[N]['query']>;
  body: z.output<Endpoints[N]['body']>;
  /** The signed-in user; present exactly when the endpoint requires a token. */
  user: Endpoints[N]['auth'] extends true ? SessionUser : null;
  /** Request headers (lower-case names), for Idempotency-Key and If-Match. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export type Handlers = { [N in EndpointName]: (context: RequestContext<N>) => Promise<EndpointResponse<N>> };

/** The handlers of one feature's endpoint map, e.g. `FeatureHandlers<typeof projectEndpoints>`. */
export type FeatureHandlers<M> = Pick<Handlers, keyof M & EndpointName>;

export type Authenticate = (authorization: string | undefined) => Promise<SessionUser>;

/** PostgreSQL text cannot hold U+0000: refuse it here as bad input instead of failing in SQL. */
function findNul(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '(root)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findNul(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nulAt = findNul(input);
  if (nulAt) {
    const message = 'must not contain the NUL character';
    throw new AppFailure('validation_failed', `validation failed: ${nulAt}: ${message}`, [{ path: nulAt, message }]);
  }
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailure(result.error);
  return result.data;
}

function register<N extends EndpointName>(app: FastifyInstance, name: N, handlers: Handlers, authenticate: Authenticate): void {
  const endpoint: Endpoints[N] = endpoints[name];
  const handler: Handlers[N] = handlers[name];
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    handler: async (request) => {
      // Authentication comes first so that callers without a token learn nothing from validation.
      const user = endpoint.auth ? await authenticate(request.headers.authorization) : null;
      const params = parse(endpoint.params, request.params ?? {});
      const query = parse(endpoint.query, request.query);
      const body = parse(endpoint.body, request.body === undefined ? {} : request.body);
      const data = await handler({ params, query, body, user, headers: request.headers } as RequestContext<N>);
      return { code: okCode, message: 'ok', data };
    },
  });
}

export function registerEndpoints(app: FastifyInstance, handlers: Handlers, authenticate: Authenticate): void {
  for (const name of Object.keys(endpoints) as EndpointName[]) register(app, name, handlers, authenticate);
}
