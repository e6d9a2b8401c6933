import { describe, expect, it } from 'vitest';
import { createOfflineLock, freshLockState, isPastLimit, makeVerifier, passwordMatches, unlockWaitMs, type OfflineLockState } from '../../src-main/core/session/offline-lock';
import { AppFailure } from '../../src-shared/errors';

// The offline lock's own rules (issue 32): the verifier, the limit's edge, the clock that never
// goes back, the waits after wrong passwords (kept with the state, so a restart keeps them), and a
// contact that brings the device's shorter days.

const day = 24 * 60 * 60 * 1000;
const start = new Date('2026-03-01T08:00:00Z');

function movableClock(at = start) {
  let now = at.getTime();
  return { now: () => new Date(now), set: (date: Date) => (now = date.getTime()), advance: (ms: number) => (now += ms) };
}

const refusal = async (promise: Promise<unknown>) => {
  const failure = await promise.then(() => null, (cause: unknown) => cause);
  expect(failure).toBeInstanceOf(AppFailure);
  return (failure as AppFailure).error;
};

describe('the password verifier', () => {
  it('keeps a salted scrypt hash, not the password, and matches only the right password', async () => {
    const verifier = await makeVerifier('alice123');
    expect(JSON.stringify(verifier)).not.toContain('alice123');
    expect(verifier).toMatchObject({ N: 2 ** 15, r: 8, p: 1 });
    expect(Buffer.from(verifier.salt, 'base64')).toHaveLength(16);
    expect(await passwordMatches(verifier, 'alice123')).toBe(true);
    expect(await passwordMatches(verifier, 'alice124')).toBe(false);
    expect(await passwordMatches(verifier, '')).toBe(false);
    // A random salt each time: the same password never makes the same verifier.
    expect((await makeVerifier('alice123')).hash).not.toBe(verifier.hash);
  });
});

describe('the limit', () => {
  const state = (days: number): OfflineLockState => ({ ...freshLockState(start), days });

  it('holds after exactly the days, and locks the moment after', () => {
    expect(isPastLimit(state(30), new Date(start.getTime() + 30 * day))).toBe(false);
    expect(isPastLimit(state(30), new Date(start.getTime() + 30 * day + 1))).toBe(true);
    expect(isPastLimit(state(1), new Date(start.getTime() + day + 1))).toBe(true);
  });

  it('counts from the password given in this run, and never on a clock set back', () => {
    const later = new Date(start.getTime() + 31 * day);
    expect(isPastLimit(state(30), later, new Date(start.getTime() + 30 * day))).toBe(false);
    // The clock showed day 40 once; set back to day 2, it is still day 40 for the lock.
    const seen = { ...state(30), latestSeenAt: new Date(start.getTime() + 40 * day).toISOString() };
    expect(isPastLimit(seen, new Date(start.getTime() + 2 * day))).toBe(true);
  });
});

describe('the waits after wrong passwords', () => {
  it('double from 1 s and stop at 15 minutes', () => {
    expect([0, 1, 2, 3, 4, 10].map(unlockWaitMs)).toEqual([0, 1000, 2000, 4000, 8000, 512_000]);
    expect(unlockWaitMs(11)).toBe(15 * 60 * 1000);
    expect(unlockWaitMs(1000)).toBe(15 * 60 * 1000);
  });
});

describe('a session lock', () => {
  async function lockedAfter(days: number, clock = movableClock()) {
    const saved: OfflineLockState[] = [];
    const state = freshLockState(clock.now(), await makeVerifier('alice123'), days);
    const lock = createOfflineLock({ state, clock, save: (next) => saved.push(next) });
    clock.advance(days * day + 60_000);
    return { lock, clock, saved };
  }

  it('locks past the limit; a wrong password waits longer each time, and the right one opens it', async () => {
    const { lock, clock, saved } = await lockedAfter(30);
    expect(lock.locked()).toBe(false);
    expect(lock.check()).toBe(true);
    expect(lock.check()).toBe(false);
    expect(lock.locked()).toBe(true);

    expect(await refusal(lock.unlock('wrong'))).toMatchObject({ code: 'invalid_credentials', reason: { key: 'unlockWait', params: { seconds: 1 } } });
    expect(lock.waitSeconds()).toBe(1);
    // During the wait even the right password is not checked.
    expect(await refusal(lock.unlock('alice123'))).toMatchObject({ code: 'rate_limited', reason: { key: 'unlockWait', params: { seconds: 1 } } });
    clock.advance(1000);
    expect(await refusal(lock.unlock('wrong again'))).toMatchObject({ code: 'invalid_credentials', reason: { params: { seconds: 2 } } });
    clock.advance(2000);
    expect(lock.locked()).toBe(true);
    expect(saved.at(-1)).toMatchObject({ failedTries: 2 });

    expect(await lock.unlock('alice123')).toBe(true);
    expect(lock.locked()).toBe(false);
    expect(await lock.unlock('alice123')).toBe(false);
    expect(lock.state()).toMatchObject({ failedTries: 0, retryAt: null });
    // Open for this run until the limit passes again from the unlock.
    clock.advance(29 * day);
    expect(lock.check()).toBe(false);
    clock.advance(2 * day);
    expect(lock.check()).toBe(true);
  });

  it('keeps the wait in its state: a lock made again from it (a restart) still waits', async () => {
    const { lock, clock, saved } = await lockedAfter(30);
    lock.check();
    for (let tries = 0; tries < 3; tries += 1) {
      await refusal(lock.unlock('wrong'));
      clock.advance(unlockWaitMs(tries + 1));
    }
    await refusal(lock.unlock('wrong'));
    const restarted = createOfflineLock({ state: saved.at(-1)!, clock, save: () => undefined });
    restarted.check();
    expect(restarted.waitSeconds()).toBe(8);
    expect(await refusal(restarted.unlock('alice123'))).toMatchObject({ code: 'rate_limited' });
  });

  it('opens at a contact with the server, which may bring shorter days for this device', async () => {
    const { lock, clock } = await lockedAfter(30);
    clock.advance(5 * day);
    lock.check();
    // An answer to a call sent more than the days ago (a slow one) does not open it.
    expect(lock.noteContact(new Date(clock.now().getTime() - 31 * day))).toBe(false);
    expect(lock.locked()).toBe(true);
    expect(lock.noteContact(clock.now())).toBe(true);
    expect(lock.locked()).toBe(false);
    // The administrator shortened this device's lock to 3 days.
    expect(lock.noteContact(clock.now(), 3)).toBe(false);
    expect(lock.state().days).toBe(3);
    clock.advance(3 * day);
    expect(lock.check()).toBe(false);
    clock.advance(60_000);
    expect(lock.check()).toBe(true);
  });

  it('without a verifier (never signed in online on this build) asks for a sign-in', async () => {
    const clock = movableClock();
    const lock = createOfflineLock({ state: freshLockState(clock.now()), clock, save: () => undefined });
    clock.advance(31 * day);
    lock.check();
    expect(await refusal(lock.unlock('alice123'))).toMatchObject({ code: 'not_signed_in', reason: { key: 'offlineLockSignIn' } });
    expect(lock.locked()).toBe(true);
  });
});
