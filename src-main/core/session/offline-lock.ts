import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { defaultOfflineLockDays, offlineLockDaysSchema } from '../../../src-shared/api/organisation';
import { AppFailure, reason } from '../../../src-shared/errors';
import type { Clock } from '../ports';

// The offline lock (issue 32): a replica that has not reached the server for the device's limit
// of days (the organisation's, or shorter for this device) asks for its user's password before it
// opens, checked against a verifier kept at the last online sign-in, so it works offline. Wrong
// tries wait longer each time, and the wait survives a restart. Its state travels with the stored
// session, which the host keeps sealed (the OS keychain in the desktop).

const dayMs = 24 * 60 * 60 * 1000;

/** scrypt's cost: 32 MiB and about 0.1 s a try on a laptop, so a copied verifier is slow to guess. */
const scryptCost = { N: 2 ** 15, r: 8, p: 1 } as const;
const verifierBytes = 32;

const verifierSchema = z.object({
  salt: z.string().min(1),
  hash: z.string().min(1),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
});
export type PasswordVerifier = z.infer<typeof verifierSchema>;

export const offlineLockStateSchema = z.object({
  /** Null until the user signs in online on this build: an expired lock then needs a sign-in. */
  verifier: verifierSchema.nullable(),
  /** The last time a call reached the server and was answered. */
  lastContactAt: z.string(),
  /**
   * The latest time this device's clock has shown: a clock set back (to stay inside the limit)
   * does not turn time back for the lock.
   */
  latestSeenAt: z.string(),
  days: offlineLockDaysSchema,
  failedTries: z.number().int().min(0),
  /** No password is checked before this time (after a wrong one). */
  retryAt: z.string().nullable(),
});
export type OfflineLockState = z.infer<typeof offlineLockStateSchema>;

function derive(password: string, salt: Buffer, cost: Omit<PasswordVerifier, 'salt' | 'hash'>): Promise<Buffer> {
  // maxmem: scrypt needs 128·N·r bytes, which Node's default limit refuses at this cost.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, verifierBytes, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** A verifier of the password: a random salt and scrypt's hash of it, never the password. */
export async function makeVerifier(password: string): Promise<PasswordVerifier> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, scryptCost);
  return { salt: salt.toString('base64'), hash: hash.toString('base64'), ...scryptCost };
}

export async function passwordMatches(verifier: PasswordVerifier, password: string): Promise<boolean> {
  const expected = Buffer.from(verifier.hash, 'base64');
  const hash = await derive(password, Buffer.from(verifier.salt, 'base64'), verifier);
  return hash.length === expected.length && timingSafeEqual(hash, expected);
}

const firstWaitMs = 1000;
const longestWaitMs = 15 * 60 * 1000;

/** How long the next try waits after `failedTries` wrong ones: 1 s, 2 s, 4 s … up to 15 minutes. */
export function unlockWaitMs(failedTries: number): number {
  if (failedTries <= 0) return 0;
  return Math.min(longestWaitMs, firstWaitMs * 2 ** Math.min(failedTries - 1, 30));
}

/** The state of a replica first kept by this build: it counts from now, with no verifier yet. */
export function freshLockState(now: Date, verifier: PasswordVerifier | null = null, days = defaultOfflineLockDays): OfflineLockState {
  const at = now.toISOString();
  return { verifier, lastContactAt: at, latestSeenAt: at, days, failedTries: 0, retryAt: null };
}

/**
 * Past the limit: more than `days` days since the server last answered (or since the password
 * was last given in this run), measured on a clock that never goes back.
 */
export function isPastLimit(state: OfflineLockState, now: Date, unlockedAt: Date | null = null): boolean {
  const seen = Math.max(now.getTime(), Date.parse(state.latestSeenAt));
  const since = Math.max(Date.parse(state.lastContactAt), unlockedAt?.getTime() ?? 0);
  return seen - since > state.days * dayMs;
}

/** The written state moves at most this often on contacts and clock readings (the limit counts in days). */
const keptGrainMs = 60 * 60 * 1000;

export interface OfflineLockOptions {
  state: OfflineLockState;
  clock: Clock;
  /** Keeps the state (with the stored session). */
  save(state: OfflineLockState): void;
}

/** A session's lock: whether it is locked now, its contacts, and the password that opens it. */
export function createOfflineLock({ state: initial, clock, save }: OfflineLockOptions) {
  let state = initial;
  let unlockedAt: Date | null = null;
  let locked = false;

  function keep(next: OfflineLockState) {
    state = next;
    save(state);
  }

  /** The clock's latest reading is kept (coarsely), so setting it back later does not help. */
  function noteClock(now: Date) {
    if (now.getTime() - Date.parse(state.latestSeenAt) >= keptGrainMs) keep({ ...state, latestSeenAt: now.toISOString() });
  }

  /** Whole seconds until the next try is allowed; 0 when it is now. */
  const waitSeconds = (now: Date) => (state.retryAt ? Math.max(0, Math.ceil((Date.parse(state.retryAt) - now.getTime()) / 1000)) : 0);

  return {
    state: () => state,
    locked: () => locked,
    /** Seconds until the next try is allowed (after a wrong one); 0 when it is now. */
    waitSeconds: () => waitSeconds(clock.now()),
    /** Locks when past the limit; true when this check locked it. */
    check(): boolean {
      const now = clock.now();
      noteClock(now);
      if (locked || !isPastLimit(state, now, unlockedAt)) return false;
      locked = true;
      return true;
    },
    /**
     * The server answered a call sent at `sentAt`: the lock's clock starts again from then, with
     * the days it gave (if it did), and a replica locked since opens. True when it opened it.
     */
    noteContact(sentAt: Date, days?: number): boolean {
      const moved = sentAt.getTime() - Date.parse(state.lastContactAt) >= keptGrainMs;
      if (moved || (days !== undefined && days !== state.days) || state.failedTries > 0) {
        const lastContactAt = new Date(Math.max(sentAt.getTime(), Date.parse(state.lastContactAt)));
        keep({ ...state, lastContactAt: lastContactAt.toISOString(), days: days ?? state.days, failedTries: 0, retryAt: null });
      }
      noteClock(sentAt);
      if (!locked || isPastLimit(state, clock.now(), unlockedAt)) return false;
      locked = false;
      return true;
    },
    /**
     * Opens a locked replica with the password; true when this call opened it (not a contact
     * meanwhile). Refused without a check while a wait runs ('rate_limited'); a wrong password
     * makes the next wait longer ('invalid_credentials'). Both say how many seconds to wait.
     */
    async unlock(password: string): Promise<boolean> {
      if (!locked) return false;
      if (!state.verifier) throw new AppFailure('not_signed_in', undefined, undefined, reason('offlineLockSignIn'));
      const now = clock.now();
      if (waitSeconds(now) > 0) {
        throw new AppFailure('rate_limited', undefined, undefined, reason('unlockWait', { seconds: waitSeconds(now) }));
      }
      if (await passwordMatches(state.verifier, password)) {
        if (!locked) return false;
        keep({ ...state, failedTries: 0, retryAt: null });
        unlockedAt = clock.now();
        locked = false;
        return true;
      }
      const failedTries = state.failedTries + 1;
      const at = clock.now();
      keep({ ...state, failedTries, retryAt: new Date(at.getTime() + unlockWaitMs(failedTries)).toISOString() });
      throw new AppFailure('invalid_credentials', undefined, undefined, reason('unlockWait', { seconds: waitSeconds(at) }));
    },
  };
}
export type OfflineLock = ReturnType<typeof createOfflineLock>;
