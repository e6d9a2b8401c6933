import { openKeptReplica } from '../support/replica-file';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { replicaFeatures } from '../../src-main/core/features';
import { clientMigrationsDir } from '../../src-main/paths';
import { statusByHandMessage } from '../../src-shared/sync/mutations';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { makeContract } from '../support/contracts';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Upgrades keep the queue (issue 12, architecture sync rule 9): an outbox as the version before
// per-field merge stored it (tests/main/fixtures/outbox-before-issue-12.json, rows verbatim;
// "@n" stands for contract n's id) is read by this build: each stored edit is sent as it was
// (the server judges its row base per field, src-server/sync/push.ts), or set aside with a
// message that says why — none is dropped silently, none blocks the rest.

interface StoredRow {
  id: string;
  name: string;
  args: string;
  base_versions: string;
  touches: string[];
}

const ids = (text: string) => text.replace(/@(\d)/g, (_, n: string) => makeContract(Number(n)).id);
const stored = (JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'outbox-before-issue-12.json'), 'utf8')) as StoredRow[]).map((row) => ({
  ...row,
  args: ids(row.args),
  base_versions: ids(row.base_versions),
  touches: row.touches.map(ids),
}));

describe('an outbox stored before per-field merge', () => {
  it('sends each stored edit as it was, or sets it aside with the reason', () => {
    const replica = openReplica(':memory:', clientMigrationsDir);
    try {
      const insert = replica.sqlite.prepare("insert into contracts (id, name, status, create_time, update_time, version) values (?, ?, 1, 't', 't', 1)");
      for (let i = 1; i <= 3; i += 1) insert.run(makeContract(i).id, `Contract ${i}`);
      const row = replica.sqlite.prepare("insert into outbox (id, name, args, base_versions, created_at, state) values (?, ?, ?, ?, '2026-11-23T10:00:00Z', 'pending')");
      const touch = replica.sqlite.prepare('insert into outbox_touches (row_key, seq) values (?, ?)');
      for (const mutation of stored) {
        const { lastInsertRowid } = row.run(mutation.id, mutation.name, mutation.args, mutation.base_versions);
        for (const key of mutation.touches) touch.run(key, lastInsertRowid);
      }
      const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-23T12:00:00Z') } });
      const batch = outbox.nextBatch(50);
      // Valid edits go out with the args and base versions they were stored with; one edit per row at a time.
      expect(batch.map((m) => [m.id, m.name, m.args, m.baseVersions])).toEqual(
        stored.filter((m) => ['101', '102', '103'].some((n) => m.id.endsWith(n))).map((m) => [m.id, m.name, JSON.parse(m.args), JSON.parse(m.base_versions)]),
      );
      const problems = new Map(outbox.status().problems.map((p) => [p.id.slice(-3), p]));
      expect(problems.get('104')).toMatchObject({ state: 'rejected', error: { code: 'bad_request', message: `Set aside: ${statusByHandMessage}.`, reason: { key: 'statusByHand' } } });
      // Stored when "contract.archive" was no edit of this registry; this build's archive takes the PDF's id and name, which it lacks.
      expect(problems.get('105')).toMatchObject({ state: 'rejected', error: { message: expect.stringContaining('the stored "contract.archive" is corrupted'), reason: { key: 'setAsideCorrupted' } } });
      expect(problems.get('106')).toMatchObject({ state: 'rejected', error: { message: expect.stringContaining('the patch changes nothing') } });
      expect([...problems.keys()].sort()).toEqual(['104', '105', '106']);
    } finally {
      replica.close();
    }
  });
});

// The same promise for every entity kind the core writes (issue 12, item 4): an outbox as the
// version before this one stored it (tests/main/fixtures/outbox-stop-19.json: rows verbatim from
// that build's core, offline against the demo data of seed 77 — task finishes, a batch finish, a
// restore, a deleted row, a plan save, a quick task, reminder settings and every scene edit; the
// server makes the system scenes' ids, so "@system0" and "@system1" stand for them) is sent by
// this build to this server after the upgrade, and each edit is applied there.

interface StoredStop19Row {
  id: string;
  name: string;
  args: string;
  base_versions: string;
  created_at: string;
  touches: string[];
}

describe('an outbox stored by the previous version, every entity kind', () => {
  const serverDir = tempDir('contract-desk-upgrade-server-');
  const desktop = tempDir('contract-desk-upgrade-');
  let server: RunningServer | null = null;
  afterAll(async () => {
    await server?.close();
    serverDir.cleanup();
    desktop.cleanup();
  });

  it('applies each stored edit on the server after the upgrade, none set aside', { timeout: 120_000 }, async () => {
    await seedDemoData({ contracts: 30, seed: 77, dataDir: serverDir.path });
    server = await startContractServer({ port: 0, dataDir: serverDir.path });
    const options = { serverUrl: server.url, syncSoonMs: 50, connectivityProbeMs: 200 };
    let core = testCore(desktop.path, options);
    const session = await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
    if (!session.signedIn) throw new Error('not signed in');
    await settledSync(core);
    const systemScenes = (await call(core, 'scene.list', {})).filter((scene) => scene.isSystem).map((scene) => scene.id);
    await core.close();

    // The stored queue, as the previous version left it in the replica file.
    const placed = (text: string) => text.replace(/@system(\d)/g, (_, n: string) => systemScenes[Number(n)]!);
    const rows = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'outbox-stop-19.json'), 'utf8')) as StoredStop19Row[];
    const replica = openKeptReplica(replicaPathFor(desktop.path, server.url, session.user.id));
    const insert = replica.prepare("insert into outbox (id, name, args, base_versions, created_at, state) values (?, ?, ?, ?, ?, 'pending')");
    const touch = replica.prepare('insert into outbox_touches (row_key, seq) values (?, ?)');
    replica.transaction(() => {
      for (const row of rows) {
        const { lastInsertRowid } = insert.run(row.id, row.name, placed(row.args), placed(row.base_versions), row.created_at);
        for (const key of row.touches) touch.run(placed(key), lastInsertRowid);
      }
    })();
    replica.close();

    core = testCore(desktop.path, options);
    try {
      const drained = await waitFor(async () => {
        const status = await call(core, 'sync.now', {});
        return status.queued === 0 || status.problems.length > 0 ? status : undefined;
      }, 60_000);
      expect(drained.problems).toEqual([]);
      expect(drained.queued).toBe(0);
      // What the server holds now, as the pull brought it back.
      const args = (name: string) => JSON.parse(placed(rows.find((row) => row.name === name)!.args)) as Record<string, unknown>;
      const finished = args('performance.finishTask') as { id: string };
      const saved = args('performance.savePlan') as { plan: { contractID: string; rows: { id: string; name?: string; expirationTime?: string }[] } };
      const sheet = await call(core, 'fulfilment.contract', { contractId: saved.plan.contractID });
      const savedRow = saved.plan.rows.find((row) => row.name !== undefined)!;
      expect(sheet.plans.flatMap((plan) => plan.tasks).find((task) => task.id === savedRow.id)).toMatchObject({ name: savedRow.name, pending: false });
      const scenes = await call(core, 'scene.list', {});
      const made = args('scene.create') as { id: string };
      expect(scenes.map((scene) => scene.id)).toEqual([made.id, ...systemScenes]);
      expect(scenes[0]).toMatchObject({ name: 'Upgrade scene renamed', isDefault: true });
      expect(finished.id).toBeTruthy();
    } finally {
      await core.close();
    }
  });
});
