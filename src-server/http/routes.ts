import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { okCode } from '../../src-shared/api/envelope';
import { endpoints, type EndpointName, type EndpointResponse, type Endpoints } from '../../src-shared/api/endpoints';
import { invalidFields, validationFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import { auditedRestWrite, isAuditedWrite } from '../audit/rest';
import { idempotencyKey, runOnce } from './write-safety';

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
  /** The client's address (the socket's peer: the server trusts no proxy header), for the sign-in throttle. */
  clientAddress: string;
}

export type Handlers = { [N in EndpointName]: (context: RequestContext<N>) => Promise<EndpointResponse<N>> };

/** The handlers of one feature's endpoint map, e.g. `FeatureHandlers<typeof projectEndpoints>`. */
export type FeatureHandlers<M> = Pick<Handlers, keyof M & EndpointName>;

/** Every feature's handlers on one database handle: the server's, or a keyed write's transaction. */
export type HandlersOn = (db: ServerDb) => Handlers;

export type Authenticate = (authorization: string | undefined) => Promise<SessionUser>;

/**
 * Writes outside the Idempotency-Key layer: sync push has its own exactly-once protocol (mutation
 * ids); logout is idempotent by nature, and its replay could not authenticate with the revoked token.
 */
const notKeyed: ReadonlySet<EndpointName> = new Set(['syncPush', 'logout']);

/** The signed-in writes that honour Idempotency-Key: every POST, PUT, PATCH and DELETE of the map but those above. */
export function isKeyedWrite(name: EndpointName): boolean {
  const endpoint = endpoints[name];
  return endpoint.auth && endpoint.method !== 'GET' && !notKeyed.has(name);
}

/**
 * Text PostgreSQL cannot store: U+0000, and a UTF-16 surrogate without its pair (JSON allows
 * "\\ud800", which jsonb refuses). Refused here as bad input instead of failing in SQL.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const unstorableText = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorableMessage = 'must not contain the NUL character or an unpaired surrogate (text that cannot be stored)';

/** The path of the first string (or object key) holding unstorable text, walking iteratively. */
function findUnstorable(input: unknown): string | undefined {
  const pending: [unknown, string[]][] = [[input, []]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (unstorableText.test(value)) return path.join('.') || '(root)';
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (unstorableText.test(key)) return [...path, key].join('.');
        pending.push([item, [...path, key]]);
      }
    }
  }
  return undefined;
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const unstorableAt = findUnstorable(input);
  if (unstorableAt) throw invalidFields([{ path: unstorableAt, message: unstorableMessage }]);
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailure(result.error);
  return result.data;
}

function register<N extends EndpointName>(app: FastifyInstance, name: N, db: ServerDb, handlersOn: HandlersOn, handlers: Handlers, authenticate: Authenticate, now: () => Date): void {
  const endpoint: Endpoints[N] = endpoints[name];
  const handler: Handlers[N] = handlers[name];
  const keyed = isKeyedWrite(name);
  const audited = isAuditedWrite(name);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    handler: async (request) => {
      // Authentication comes first so that callers without a token learn nothing from validation.
      const user = endpoint.auth ? await authenticate(request.headers.authorization) : null;
      const params = parse(endpoint.params, request.params ?? {});
      const query = parse(endpoint.query, request.query);
      const body = parse(endpoint.body, request.body === undefined ? {} : request.body);
      const context = { params, query, body, user, headers: request.headers, clientAddress: request.ip } as RequestContext<N>;
      const key = keyed && user ? idempotencyKey(request.headers) : undefined;
      // A write runs on handlers built on its transaction, so the effect and its audit event (and
      // for a keyed write, the key's claim and the stored response) commit together (handlers'
      // own transactions become savepoints).
      const write = (tx: ServerDb) => (audited && user
        ? auditedRestWrite(tx, { name, user, params, body, headers: request.headers, at: now(), run: (on) => handlersOn(on)[name](context) })
        : handlersOn(tx)[name](context));
      const data = key !== undefined && user
        ? await runOnce(db, { userId: user.id, key, endpoint: name, params, query, body }, write)
        : audited ? await db.transaction(write) : await handler(context);
      return { code: okCode, message: 'ok', data };
    },
  });
}

/** `now`: the server's clock, for the audit events' time of apply. */
export function registerEndpoints(app: FastifyInstance, db: ServerDb, handlersOn: HandlersOn, authenticate: Authenticate, now: () => Date): void {
  const handlers = handlersOn(db);
  for (const name of Object.keys(endpoints) as EndpointName[]) register(app, name, db, handlersOn, handlers, authenticate, now);
}
