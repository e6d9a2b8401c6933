import { and, eq, lt, sql } from 'drizzle-orm';
import type { ServerDb } from '../db/database';
import { loginThrottles } from '../db/schema';
import { RateLimited } from '../http/errors';

// Sign-in throttle (docs/security.md "Sign-in throttle"). Attempts are counted per user name AND
// client address, so failures from one address never lock the user out of another. Each attempt
// is counted before its password is checked, in one statement that also refuses it while its pair
// must wait: concurrent attempts, on one server process or several, queue on the pair's row, so a
// burst gets no more password checks than the allowance. A successful sign-in clears its pair.

export const loginThrottle = {
  /** Attempts of one pair that may follow each other without waiting. */
  freeAttempts: 5,
  /** The wait after the last free attempt; it doubles with each further attempt. */
  firstWaitMs: 1000,
  maxWaitMs: 15 * 60 * 1000,
  /** A pair with no attempt for this long starts again from nothing. */
  forgetAfterMs: 24 * 60 * 60 * 1000,
} as const;

const { freeAttempts, firstWaitMs, maxWaitMs } = loginThrottle;
/** Doubling beyond this exponent only passes the cap (and would overflow an interval). */
const maxDoublings = Math.ceil(Math.log2(maxWaitMs / firstWaitMs));

export interface LoginAttempt {
  username: string;
  address: string;
}

const timestamp = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * Counts one attempt of the pair, or refuses it with 429 (RateLimited, carrying Retry-After)
 * while the pair must wait. Call it before checking the password.
 */
export async function admitLoginAttempt(db: ServerDb, { username, address }: LoginAttempt, now: Date): Promise<void> {
  const forgotten = sql`${loginThrottles.lastAttemptAt} <= ${timestamp(new Date(now.getTime() - loginThrottle.forgetAfterMs))}`;
  const attempts = sql`case when ${forgotten} then 1 else ${loginThrottles.attempts} + 1 end`;
  const wait = sql`case when ${attempts} < ${sql.raw(String(freeAttempts))} then interval '0 seconds'
    else least(interval '${sql.raw(String(firstWaitMs))} milliseconds' * power(2, least(${attempts} - ${sql.raw(String(freeAttempts))}, ${sql.raw(String(maxDoublings))})),
      interval '${sql.raw(String(maxWaitMs))} milliseconds') end`;
  const admitted = await db
    .insert(loginThrottles)
    // A first attempt never waits (freeAttempts > 1).
    .values({ username, address, attempts: 1, lastAttemptAt: now, nextAttemptAt: now })
    .onConflictDoUpdate({
      target: [loginThrottles.username, loginThrottles.address],
      set: { attempts, lastAttemptAt: now, nextAttemptAt: sql`${timestamp(now)} + ${wait}` },
      // Within the allowance an attempt is admitted whatever the clocks say: requests of one burst
      // reach the row out of the order of their `now`, and on several processes their clocks differ.
      setWhere: sql`${loginThrottles.attempts} < ${sql.raw(String(freeAttempts))} or ${loginThrottles.nextAttemptAt} <= ${timestamp(now)} or ${forgotten}`,
    })
    .returning({ attempts: loginThrottles.attempts });
  if (admitted.length > 0) return;
  const [pair] = await db
    .select({ nextAttemptAt: loginThrottles.nextAttemptAt })
    .from(loginThrottles)
    .where(and(eq(loginThrottles.username, username), eq(loginThrottles.address, address)));
  // Gone meanwhile: a concurrent sign-in of the pair succeeded; try again at once.
  const waitMs = pair ? pair.nextAttemptAt.getTime() - now.getTime() : 0;
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  throw new RateLimited(seconds, `Too many failed sign-ins for this user from this address: try again in ${seconds} s.`);
}

/** A successful sign-in: the pair's failures are forgiven. */
export async function clearLoginAttempts(db: ServerDb, { username, address }: LoginAttempt): Promise<void> {
  await db.delete(loginThrottles).where(and(eq(loginThrottles.username, username), eq(loginThrottles.address, address)));
}

/** Drops pairs idle long enough to be forgotten anyway (server maintenance, src-server/maintenance.ts). */
export async function pruneLoginThrottles(db: ServerDb, now: Date): Promise<void> {
  await db.delete(loginThrottles).where(lt(loginThrottles.lastAttemptAt, new Date(now.getTime() - loginThrottle.forgetAfterMs)));
}
