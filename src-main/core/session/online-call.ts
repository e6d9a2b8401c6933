import type { z } from 'zod';
import { endpoints, type EndpointName, type EndpointResponse } from '../../../src-shared/api/endpoints';
import { AppFailure, validationFailure } from '../../../src-shared/errors';
import type { ContractServerRequest } from '../contract-server/client';
import type { CachedEntry } from '../data/cached-reads';
import type { Clock } from '../ports';
import { authorizedCall } from './authorized-call';
import { serverPresenceOf } from './server-presence';
import type { ActiveSession } from './session-service';

// Server-only calls (template approval, the form's online helpers, the management screens of
// issue 15): a write goes to the server or is refused at once with 'offline' while the server is
// away, never waited for; a read answers the server's answer, or the kept one "as of" its time.

/** A failure that means "the server is away", not "the server refused". */
export function isServerAway(cause: unknown): cause is AppFailure {
  return cause instanceof AppFailure && (cause.error.code === 'server_unreachable' || cause.error.code === 'offline');
}

/** A call only the server can answer: 'offline', at once, while it cannot be reached. */
export async function onlineCall<N extends EndpointName>(session: ActiveSession, name: N, request: ContractServerRequest<N> = {}): Promise<EndpointResponse<N>> {
  // Known away (silently dropped packets would otherwise hold the call for the whole timeout).
  const presence = serverPresenceOf(session);
  if (presence?.away()) {
    presence.recheck();
    throw new AppFailure('offline');
  }
  try {
    return await authorizedCall(session, name, request);
  } catch (cause) {
    if (isServerAway(cause)) throw new AppFailure('offline');
    throw cause;
  }
}

/** A request from the renderer named by endpoint, checked against that endpoint's schemas before it is sent. */
export interface EndpointRequest {
  endpoint: EndpointName;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

/** Refuses with the endpoint's own messages what the server would refuse; the request as the client sends it. */
export function checkedEndpointRequest(request: EndpointRequest): ContractServerRequest<EndpointName> {
  const endpoint = endpoints[request.endpoint];
  // The query travels as text (refresh=true), and the endpoint's schema reads it as text: check what the server will get.
  const queryText = Object.fromEntries(Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)]));
  for (const [part, schema, value] of [
    ['params', endpoint.params, request.params ?? {}],
    ['query', endpoint.query, queryText],
    ['body', endpoint.body, request.body ?? {}],
  ] as const) {
    const parsed = (schema as z.ZodType).safeParse(value);
    if (!parsed.success) {
      const failure = validationFailure(parsed.error);
      throw new AppFailure('validation_failed', failure.message, failure.error.issues?.map((issue) => ({ ...issue, path: `${part}.${issue.path}` })));
    }
  }
  return { params: request.params, query: request.query, body: request.body } as ContractServerRequest<EndpointName>;
}

/** Where a cached read keeps its answers (the replica's cached_reads store of the signed-in user). */
export interface CachedReadKeeper {
  read<T>(kind: string, key: string, schema: z.ZodType<T>): CachedEntry<T> | null;
  write(kind: string, key: string, value: unknown, fetchedAt: string): void;
}

export interface CachedReadOf<T> {
  kind: string;
  key: string;
  /** Reads a kept answer back (one that no longer parses is no answer). */
  schema: z.ZodType<T>;
  fetch: () => Promise<T>;
}

/**
 * The server's answer, kept with its time; while the server is away the kept one with `offline`,
 * or 'offline' when this read was never answered on this device. A refusal of the server stays a refusal.
 */
export async function cachedRead<T>(keeper: CachedReadKeeper, clock: Clock, read: CachedReadOf<T>): Promise<{ value: T; asOf: string; offline: boolean }> {
  try {
    const value = await read.fetch();
    const asOf = clock.now().toISOString();
    keeper.write(read.kind, read.key, value, asOf);
    return { value, asOf, offline: false };
  } catch (cause) {
    if (!isServerAway(cause)) throw cause;
    const kept = keeper.read(read.kind, read.key, read.schema);
    if (!kept) throw new AppFailure('offline');
    return { value: kept.value, asOf: kept.fetchedAt, offline: true };
  }
}

/** The canonical key of a read's parameters: the same parameters in any order are the same answer. */
export function readKey(parts: Record<string, Record<string, unknown> | undefined>): string {
  const byName = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = (record: Record<string, unknown> = {}) => Object.fromEntries(byName(Object.entries(record)).map(([name, value]) => [name, String(value)]));
  return JSON.stringify(Object.fromEntries(byName(Object.entries(parts)).map(([name, record]) => [name, text(record)])));
}
