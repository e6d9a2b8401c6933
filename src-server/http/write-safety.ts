import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { AppFailure, type Reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { StaleVersion } from './errors';
import { idempotencyKeys } from './schema';

// Write safety for plain REST writes (issue 3, "Sync support"; docs/api.md "Write safety"):
// - Idempotency-Key: the route layer (routes.ts) runs a keyed write inside one transaction that
//   claims the key (the row's primary key, per user) and stores the response, so the effect and
//   the stored response commit together. A concurrent replay waits on the claim and then returns
//   what the first stored; a replay never repeats the effect. A failed write stores nothing (it
//   had no effect), so a retry runs again.
// - If-Match: <version>: a write whose version is stale is refused with 409 and the current row.

export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What identifies a keyed request for the replay check: the endpoint and what was sent to it. */
export interface KeyedRequest {
  userId: string;
  key: string;
  endpoint: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

const maxKeyLength = 200;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The request's Idempotency-Key, undefined without the header; 400 when empty or too long. */
export function idempotencyKey(headers: Headers): string | undefined {
  const key = header(headers, 'idempotency-key')?.trim();
  if (key === undefined) return undefined;
  if (key === '' || key.length > maxKeyLength) {
    const message = `Idempotency-Key must be 1 to ${maxKeyLength} characters`;
    throw new AppFailure('bad_request', message, [{ path: 'Idempotency-Key', message }]);
  }
  return key;
}

/** The version an If-Match header demands: `3`, `"3"` or `W/"3"`; undefined without the header. */
export function ifMatchVersion(headers: Headers): number | undefined {
  const raw = header(headers, 'if-match')?.trim();
  if (raw === undefined) return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(raw);
  if (!match?.[1]) {
    const message = 'If-Match must be the version number of the row, e.g. If-Match: 3';
    throw new AppFailure('bad_request', message, [{ path: 'If-Match', message }]);
  }
  return Number(match[1]);
}

/** The version a write is based on: the body's `version` where the request has one, else If-Match. */
export function basedOnVersion(bodyVersion: number | undefined, headers: Headers): number | undefined {
  return bodyVersion ?? ifMatchVersion(headers);
}

/**
 * The one optimistic-concurrency check of every versioned write: when the write is based on a
 * version (`expected`, see basedOnVersion) other than the stored one, 409 `conflict` with the
 * current row in `data`, so the client can merge without another read; `why` says it in the
 * user's language where the client shows the refusal as it is.
 */
export async function checkIfMatch(what: string, stored: number, expected: number | undefined, current: () => unknown, why?: Reason): Promise<void> {
  if (expected === undefined || expected === stored) return;
  throw new StaleVersion(`${what} was changed by someone else: it is at version ${stored}, not ${expected}`, await current(), why);
}

function requestHash(request: KeyedRequest): string {
  const { endpoint, params, query, body } = request;
  return createHash('sha256').update(JSON.stringify({ endpoint, params, query, body })).digest('hex');
}

/**
 * Runs `effect` exactly once per user and key, in one transaction with the key's claim and its
 * stored response: a replay returns the stored response of the first run.
 */
export function runOnce<T>(db: ServerDb, request: KeyedRequest, effect: (tx: ServerDb) => Promise<T>): Promise<T> {
  const { userId, key } = request;
  const hash = requestHash(request);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, requestHash: hash, status: 0 })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [stored] = await tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!stored) throw new Error(`idempotency key ${key} vanished`);
      if (stored.requestHash !== hash) {
        throw new AppFailure('conflict', `Idempotency-Key '${key}' was already used for a different request: send a new key for a new write`);
      }
      return stored.response as T;
    }
    const result = await effect(tx);
    await tx.update(idempotencyKeys).set({ status: 200, response: result ?? null }).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return result;
  });
}

/** Stored responses are kept this long: a retry of a write older than that runs it again. */
export const idempotencyKeyRetentionDays = 7;

/** Drops the keys claimed before `before` (server maintenance, src-server/maintenance.ts). */
export async function pruneIdempotencyKeys(db: ServerDb, before: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createTime, before));
}
