import { openKeptReplica } from '../support/replica-file';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import type { EventName } from '../../src-shared/ipc/channels';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// The sync channels of the core against the contract server (PGlite, in process): an edit goes
// through the outbox and reaches the server, a stale edit becomes a conflict the user settles,
// an unusable outbox row is set aside and dismissed, and the status counts all of it.

const serverDir = tempDir('contract-desk-server-');
let server: RunningServer;

beforeAll(async () => {
  await seedDemoData({ contracts: 40, seed: 5, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

async function signedInCore(dataDir: string): Promise<Core> {
  const core = testCore(dataDir, { syncSoonMs: 20, connectivityProbeMs: 200 });
  await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
  await settledSync(core);
  return core;
}

const firstContract = async (core: Core) => (await call(core, 'ledger.contractPage', { pageSize: 10, sort: { field: 'name', order: 'asc' } })).list[0]!;
/** Drafts by name: only they may still be edited (approved contracts are altered instead). */
const drafts = async (core: Core) => (await call(core, 'ledger.contractPage', { status: 1, pageSize: 10, sort: { field: 'name', order: 'asc' } })).list;

describe('sync channels', () => {
  const mineDir = tempDir('contract-desk-mine-');
  const theirsDir = tempDir('contract-desk-theirs-');
  let mine: Core;
  let theirs: Core;
  afterAll(async () => {
    await mine?.close();
    await theirs?.close();
    mineDir.cleanup();
    theirsDir.cleanup();
  });

  it('contract.update shows at once, is queued, and drains soon after', async () => {
    mine = await signedInCore(mineDir.path);
    const events: EventName[] = [];
    mine.subscribe((event) => events.push(event));
    const [contract, submitted] = await drafts(mine);
    const before = await call(mine, 'ledger.contractStatistics', {});
    const { mutationId } = await call(mine, 'contract.update', { id: contract!.id, patch: { name: '0 Renamed here' } });
    expect(mutationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events).toContain('data.changed');
    expect(await firstContract(mine)).toMatchObject({ id: contract!.id, name: '0 Renamed here', status: 1 });
    // A status step (submit for approval) moves the header counts at once, before the server knows.
    await call(mine, 'contract.approvalStep', { id: submitted!.id, action: 'submit' });
    const counts = await call(mine, 'ledger.contractStatistics', {});
    expect(counts).toMatchObject({ draft: before.draft - 1, underApproval: before.underApproval + 1 });
    const drained = await waitFor(async () => {
      const status = await call(mine, 'sync.status', {});
      return status.queued === 0 && status.phase === 'idle' ? status : undefined;
    });
    expect(drained).toMatchObject({ online: true, oldestQueuedAt: null, problems: [] });
    expect(await firstContract(mine)).toMatchObject({ name: '0 Renamed here', version: contract!.version + 1 });
    expect((await drafts(mine)).some((c) => c.id === submitted!.id)).toBe(false);
  });

  it('a stale edit becomes a conflict; keep theirs drops it, apply mine again wins on top', async () => {
    theirs = await signedInCore(theirsDir.path);
    const contract = await firstContract(mine);
    await call(mine, 'contract.update', { id: contract.id, patch: { name: '0 Mine again' } });
    await waitFor(async () => ((await call(mine, 'sync.status', {})).queued === 0 ? true : undefined));
    // theirs has not pulled mine yet: its edit is based on the old version.
    await call(theirs, 'contract.update', { id: contract.id, patch: { name: '0 Theirs' } });
    const conflicted = await waitFor(async () => {
      const status = await call(theirs, 'sync.status', {});
      return status.problems.length > 0 ? status : undefined;
    });
    const [problem] = conflicted.problems;
    expect(problem).toMatchObject({ state: 'conflict', changes: { name: '0 Theirs' }, theirs: { name: '0 Mine again' }, error: { code: 'conflict' } });
    // Nothing was overwritten silently: the server still has mine.
    await call(theirs, 'sync.now', {});
    expect((await firstContract(theirs)).name).toBe('0 Mine again');
    expect(await theirs.invoke('sync.dismiss', { id: problem!.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const settled = await call(theirs, 'sync.applyMineAgain', { id: problem!.id });
    expect(settled.problems).toEqual([]);
    await waitFor(async () => ((await call(theirs, 'sync.status', {})).queued === 0 ? true : undefined));
    await call(mine, 'sync.now', {});
    expect((await firstContract(mine)).name).toBe('0 Theirs');

    await call(mine, 'contract.update', { id: contract.id, patch: { name: '0 Mine wins' } });
    await waitFor(async () => ((await call(mine, 'sync.status', {})).queued === 0 ? true : undefined));
    await call(theirs, 'contract.update', { id: contract.id, patch: { name: '0 Stale again' } });
    const again = await waitFor(async () => (await call(theirs, 'sync.status', {})).problems[0]);
    await call(theirs, 'sync.keepTheirs', { id: again.id });
    await call(theirs, 'sync.now', {});
    expect((await firstContract(theirs)).name).toBe('0 Mine wins');
    expect((await call(theirs, 'sync.status', {})).problems).toEqual([]);
  });

  it('sets an unusable outbox row aside as a rejected change, keeps draining, and dismisses it', async () => {
    await mine.close();
    const replicas = join(mineDir.path, 'replicas');
    const file = join(replicas, readdirSync(replicas).find((f) => f.endsWith('.sqlite'))!);
    const db = openKeptReplica(file);
    const insert = db.prepare("insert into outbox (id, name, args, base_versions, created_at, state) values (?, ?, ?, '{}', '2026-11-21T09:00:00.000Z', 'pending')");
    insert.run('0192f000-0000-7000-8000-0000000000f1', 'contract.frobnicate', '{}');
    insert.run('0192f000-0000-7000-8000-0000000000f2', 'contract.update', '{not json');
    db.close();

    mine = testCore(mineDir.path, { syncSoonMs: 20 });
    const contract = await firstContract(mine);
    await call(mine, 'contract.update', { id: contract.id, patch: { contractNumber: 'AFTER-POISON' } });
    const status = await waitFor(async () => {
      const s = await call(mine, 'sync.status', {});
      return s.queued === 0 && s.problems.length === 2 ? s : undefined;
    });
    expect(status.problems.map((p) => [p.state, p.error?.message])).toEqual([
      ['rejected', expect.stringContaining('unknown mutation "contract.frobnicate"')],
      ['rejected', expect.stringContaining('corrupted')],
    ]);
    expect((await firstContract(mine)).contractNumber).toBe('AFTER-POISON');
    await call(mine, 'sync.dismiss', { id: status.problems[0]!.id });
    const after = await call(mine, 'sync.dismiss', { id: status.problems[1]!.id });
    expect(after.problems).toEqual([]);
    expect(await mine.invoke('sync.keepTheirs', { id: status.problems[0]!.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('refuses the sync channels when signed out', async () => {
    await call(theirs, 'session.signOut', {});
    expect(await theirs.invoke('contract.update', { id: '0192f000-0000-7000-8000-000000000001', patch: { name: 'y' } })).toMatchObject({ ok: false, error: { code: 'not_signed_in' } });
    expect(await call(theirs, 'sync.status', {})).toMatchObject({ queued: 0, problems: [] });
  });
});
