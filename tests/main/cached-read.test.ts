import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cachedReadStore } from '../../src-main/core/data/cached-reads';
import { openReplica } from '../../src-main/core/data/replica';
import { cachedRead, readKey } from '../../src-main/core/session/online-call';
import { clientMigrationsDir } from '../../src-main/paths';
import { AppFailure } from '../../src-shared/errors';
import { tempDir } from '../support/temp';

// The generic cached online read (issue 15): the server's answer is kept with its time and given
// back "as of" that time while the server is away; a read never made offline is 'offline'; a
// refusal of the server stays a refusal and keeps nothing; a kept answer is per user.

const dir = tempDir('contract-desk-cached-read-');
const replica = openReplica(join(dir.path, 'replica.sqlite'), clientMigrationsDir);
afterAll(() => {
  replica.close();
  dir.cleanup();
});

const schema = z.object({ list: z.array(z.object({ id: z.string(), name: z.string() })) });
let now = new Date('2026-11-20T08:00:00.000Z');
const clock = { now: () => now };
const away = () => Promise.reject(new AppFailure('server_unreachable'));
const failureOf = async (promise: Promise<unknown>) => promise.then(() => null, (cause: unknown) => (cause instanceof AppFailure ? cause.error.code : 'not an AppFailure'));

describe('cachedRead', () => {
  const alice = cachedReadStore(replica.db, 'alice');
  const firms = { list: [{ id: 'f1', name: 'Zhong Lun' }] };

  it('answers the server and keeps the answer with its time; offline it answers the kept one as of that time', async () => {
    const online = await cachedRead(alice, clock, { kind: 'lawFirmList', key: 'all', schema, fetch: () => Promise.resolve(firms) });
    expect(online).toEqual({ value: firms, asOf: '2026-11-20T08:00:00.000Z', offline: false });

    now = new Date('2026-11-21T09:30:00.000Z');
    const offline = await cachedRead(alice, clock, { kind: 'lawFirmList', key: 'all', schema, fetch: away });
    expect(offline).toEqual({ value: firms, asOf: '2026-11-20T08:00:00.000Z', offline: true });
  });

  it("is 'offline' for a read this device never made, and for another user's kept answer", async () => {
    expect(await failureOf(cachedRead(alice, clock, { kind: 'lawFirmList', key: 'other', schema, fetch: away }))).toBe('offline');
    const bob = cachedReadStore(replica.db, 'bob');
    expect(await failureOf(cachedRead(bob, clock, { kind: 'lawFirmList', key: 'all', schema, fetch: away }))).toBe('offline');
  });

  it("keeps the server's refusal a refusal and the kept answer untouched", async () => {
    const refused = () => Promise.reject(new AppFailure('forbidden'));
    expect(await failureOf(cachedRead(alice, clock, { kind: 'lawFirmList', key: 'all', schema, fetch: refused }))).toBe('forbidden');
    expect(alice.read('lawFirmList', 'all', schema)?.value).toEqual(firms);
  });

  it("treats a kept answer that no longer reads as this read's schema as none", async () => {
    alice.write('lawFirmList', 'damaged', { list: 'not a list' }, now.toISOString());
    expect(await failureOf(cachedRead(alice, clock, { kind: 'lawFirmList', key: 'damaged', schema, fetch: away }))).toBe('offline');
  });

  it('keys the same parameters in any order to the same answer', () => {
    expect(readKey({ params: { id: '1' }, query: { q: 'a', pageNum: 1 } })).toBe(readKey({ query: { pageNum: '1', q: 'a' }, params: { id: '1' } }));
    expect(readKey({ query: { q: 'a' } })).not.toBe(readKey({ query: { q: 'b' } }));
  });
});
