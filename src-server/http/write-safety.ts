import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { StaleVersion } from './errors';
import { idempotencyKeys } from './schema';

// Write safety for plain REST writes (issue 3, "Sync support"; docs/api/contract-forms.md):
// - Idempotency-Key: the first successful response is stored per user and key, with a hash of
//   the request, in the transaction of the effect. The claim is the row's primary key, so a
//   concurrent replay waits for the first transaction and then returns what it stored; a replay
//   never repeats the effect. A failed write stores nothing (it had no effect), so a retry runs again.
// - If-Match: <version>: a write whose version is stale is refused with 409 and the current row.

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What identifies a request for the replay check: the endpoint and what was sent to it. */
export interface WriteRequest {
  userId: string;
  headers: Headers;
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

function idempotencyKey(headers: Headers): string | undefined {
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

/** Refuses a write whose If-Match version is not the row's: 409 with the current row in `data`. */
export async function checkIfMatch(headers: Headers, version: number, current: () => Promise<unknown>): Promise<void> {
  const expected = ifMatchVersion(headers);
  if (expected === undefined || expected === version) return;
  throw new StaleVersion(`changed by someone else: the row is at version ${version}, not ${expected}`, await current());
}

function requestHash(request: WriteRequest): string {
  const { endpoint, params, query, body } = request;
  return createHash('sha256').update(JSON.stringify({ endpoint, params, query, body })).digest('hex');
}

/**
 * Runs `effect` in one transaction; with an Idempotency-Key, exactly once per user and key:
 * a replay returns the stored response of the first run.
 */
export async function safeWrite<T>(db: ServerDb, request: WriteRequest, effect: (tx: ServerDb) => Promise<T>): Promise<T> {
  try {
    return await runOnce(db, request, effect);
  } catch (error) {
    // Checks that passed before a concurrent write committed (a duplicate number, a client id)
    // end in the unique index: that is a conflict with the other write, never a server error.
    if (isUniqueViolation(error)) throw new AppFailure('conflict', 'a concurrent write got there first (a number or id it needs is now taken): reload and try again');
    throw error;
  }
}

/** PostgreSQL's unique_violation, as thrown by either driver (drizzle wraps it in `cause`). */
function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; typeof cause === 'object' && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function runOnce<T>(db: ServerDb, request: WriteRequest, effect: (tx: ServerDb) => Promise<T>): Promise<T> {
  const key = idempotencyKey(request.headers);
  if (key === undefined) return db.transaction((tx) => effect(tx));
  const hash = requestHash(request);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId: request.userId, key, requestHash: hash, status: 0 })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [stored] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
      if (!stored) throw new Error(`idempotency key ${key} vanished`);
      if (stored.requestHash !== hash) {
        throw new AppFailure('conflict', `Idempotency-Key '${key}' was already used for a different request: send a new key for a new write`);
      }
      return stored.response as T;
    }
    const result = await effect(tx);
    await tx
      .update(idempotencyKeys)
      .set({ status: 200, response: result })
      .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
    return result;
  });
}
