import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { createSyncEngine } from '../../src-main/core/sync/sync-engine';
import { clientMigrationsDir } from '../../src-main/paths';
import { cursorPosition } from '../../src-shared/api/sync';
import { contractSchema } from '../../src-shared/domain/contract';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { contractCount, FakeServer, FaultyTransport, ManualTimer, pullFaults, pushFaults } from './sync-fakes';
import { replicaFeatures } from '../../src-main/core/features';

// The client engine against the fake exactly-once server behind a faulty transport: random local
// edits, other users' edits, syncs, timers, late deliveries, sign-ins and conflict settlements.

const field = fc.constantFrom('name', 'contractNumber', 'signDate');
const action = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('edit' as const), contract: fc.integer({ min: 1, max: contractCount }), field, value: fc.integer({ min: 0, max: 9 }), forbidden: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('editElsewhere' as const), contract: fc.integer({ min: 1, max: contractCount }), field, value: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('sync' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deliverHeld' as const), index: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('signIn' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle' as const), mine: fc.boolean() }) },
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;
const scenario = fc.record({
  actions: fc.array(action, { maxLength: 25 }),
  pushFaults: fc.array(fc.constantFrom(...pushFaults), { maxLength: 12 }),
  pullFaults: fc.array(fc.constantFrom(...pullFaults), { maxLength: 12 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/** Linux's memory file system. */
const memoryFolder = '/dev/shm';

const patchFor = (a: Extract<Action, { kind: 'edit' }>) =>
  a.field === 'name' ? { name: `${a.forbidden ? 'forbidden' : 'mine'} ${a.value}` } : a.field === 'contractNumber' ? { contractNumber: `N-${a.value}` } : { signDate: `2026-01-1${a.value}` };

// Migrating a replica takes longer than most runs: each run opens a copy of one migrated once.
// The copies live in memory where the system offers a memory file system: a replica file's
// opening, commits and closing on disk cost more than a run's edits and syncs (the replica
// behaves the same; only where its pages are kept changes).
const folder = existsSync(memoryFolder) ? { path: mkdtempSync(join(memoryFolder, 'contract-desk-sync-property-')), cleanup: () => undefined } : tempDir('contract-desk-sync-property-');
const template = join(folder.path, 'template.db');
openReplica(template, clientMigrationsDir).close();
afterAll(() => {
  rmSync(folder.path, { recursive: true, force: true });
  folder.cleanup();
});
let runs = 0;
function freshReplica() {
  const path = join(folder.path, `run-${(runs += 1)}.db`);
  copyFileSync(template, path);
  return openReplica(path, clientMigrationsDir);
}

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const everything = ledgerContractPageRequestSchema.parse({ pageNum: 1, pageSize: 50, status: null, q: '', sort: { field: 'updateTime', order: 'asc' } });

async function check({ actions, pushFaults: pushPlan, pullFaults: pullPlan }: Scenario) {
  const server = new FakeServer();
  const transport = new FaultyTransport(server);
  transport.pushFaults = [...pushPlan];
  transport.pullFaults = [...pullPlan];
  const timer = new ManualTimer();
  const replica = freshReplica();
  try {
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-21T10:00:00Z') } });
    const meta = metaReader(replica);
    const engine = createSyncEngine({
      outbox, meta, writer: replicaWriter(replica, replicaFeatures), transport, timer, logger: silentLogger,
      clientId: '0192f000-0000-7000-8000-000000000001', refreshAuth: () => transport.refresh(),
      clock: { now: () => new Date('2026-11-21T10:00:00Z') }, random: () => 0.5,
    });
    const ledger = contractReader(replica);
    const shown = () => new Map(ledger.page(everything).list.map((c) => [c.id, c]));
    const enqueued: string[] = [];
    const dismissed = new Set<string>();
    let cursor = 0n;

    const invariants = () => {
      const next = cursorPosition(meta.cursor());
      expect(next).toBeGreaterThanOrEqual(cursor);
      cursor = next;
      for (const count of server.effects.values()) expect(count).toBe(1);
      expect(server.selfConflicts).toEqual([]);
      // Per-field merge, judged from the history of field changes: an edit conflicts exactly on the
      // fields it changes that someone changed after its base; edits of other fields merge.
      for (const decision of server.decisions) {
        if (decision.conflicting.includes('*')) continue;
        const movedSince = decision.changed.filter((f) => server.history.slice(0, decision.historyBefore).some((h) => h.id === decision.row && h.field === f && h.version > decision.base));
        expect(decision.conflicting).toEqual(movedSince);
      }
      // The user always sees their own unconfirmed writes: the last live value of each field.
      const live = replica.sqlite.prepare("select args from outbox where state in ('pending', 'applied') order by seq").pluck().all() as string[];
      const expected = new Map<string, Record<string, unknown>>();
      for (const text of live) {
        const { id, patch } = JSON.parse(text) as { id: string; patch: Record<string, unknown> };
        expected.set(id, { ...expected.get(id), ...patch });
      }
      const rows = shown();
      for (const [id, fields] of expected) if (rows.has(id)) expect(rows.get(id)).toMatchObject(fields);
    };

    for (const a of actions) {
      switch (a.kind) {
        case 'edit': {
          const id = makeContract(a.contract).id;
          const edit = () => outbox.enqueue('contract.update', { id, patch: patchFor(a) }).id;
          // A contract not pulled yet is not the user's to edit here: refused at once, nothing queued.
          if (shown().has(id)) enqueued.push(edit());
          else expect(edit).toThrow(`contract:${id} does not exist`);
          break;
        }
        case 'editElsewhere':
          server.editElsewhere(a.contract, a.field, a.field === 'name' ? `theirs ${a.value}` : a.field === 'contractNumber' ? `T-${a.value}` : `2027-02-1${a.value}`);
          break;
        case 'sync':
          await engine.syncNow();
          break;
        case 'tick':
          await timer.fireAll();
          break;
        case 'deliverHeld':
          transport.deliverHeld(a.index);
          break;
        case 'signIn':
          transport.refreshRefused = false;
          transport.tokenValid = true;
          await engine.resume();
          break;
        case 'settle': {
          const [problem] = outbox.status().problems.filter((p) => p.state === 'conflict');
          if (!problem) break;
          // Either way this mutation is settled: dropped, or replaced by a new one on the current version.
          dismissed.add(problem.id);
          if (a.mine) enqueued.push(outbox.applyMineAgain(problem.id).id);
          else outbox.dismiss(problem.id);
        }
      }
      invariants();
    }

    // The faults stop; late messages arrive; the user signs in again.
    transport.pushFaults = [];
    transport.pullFaults = [];
    while (transport.held.length > 0) transport.deliverHeld(0);
    transport.refreshRefused = false;
    transport.tokenValid = true;
    await engine.resume();
    invariants();

    expect(engine.state()).toMatchObject({ phase: 'idle' });
    const status = outbox.status();
    expect(status.queued).toBe(0);
    expect(replica.sqlite.prepare("select count(*) from outbox where state = 'applied'").pluck().get()).toBe(0);
    // The ledger shows the server's rows (without the form's columns, which it does not list).
    expect(shown()).toEqual(new Map([...server.rows].map(([id, row]) => [id, contractSchema.parse(row)])));
    // Each edit took effect exactly once, or is shown to the user as refused or in conflict.
    const problems = new Map(status.problems.map((p) => [p.id, p]));
    for (const id of enqueued) {
      const problem = problems.get(id);
      // A conflict names the fields both sides changed.
      const decided = server.decisions.find((d) => d.id === id);
      if (problem?.state === 'conflict' && decided && !decided.conflicting.includes('*')) expect((problem.error?.issues ?? []).map((i) => i.path)).toEqual(decided.conflicting);
      if (dismissed.has(id) || problem?.state === 'conflict') expect(server.effects.has(id)).toBe(false);
      else if (!problem) expect(server.effects.get(id)).toBe(1);
      // Only a mutation set aside for want of a valid answer may have taken effect unseen.
      else if (problem.error?.code !== 'bad_request') expect(server.effects.has(id)).toBe(false);
      // (an applied-then-conflict cannot happen: the server stores one result per id)
    }
  } finally {
    replica.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(replica.path + suffix, { force: true });
  }
}

describe('sync engine against a faulty network (property)', () => {
  // Seeds that once failed, kept as regressions.
  it('keeps an applied edit of a row not pulled yet, so the next edit builds on it (seed 1)', () =>
    check({
      actions: [
        { kind: 'edit', contract: 1, field: 'name', value: 0, forbidden: false },
        { kind: 'sync' },
        { kind: 'settle', mine: true },
        { kind: 'sync' },
        { kind: 'edit', contract: 1, field: 'name', value: 0, forbidden: false },
      ],
      pushFaults: [],
      pullFaults: ['drop', '5xx'],
    }));

  it('applies mine again on top of a newer own edit, not the stale conflict version (seed 5)', () =>
    check({
      actions: [
        { kind: 'edit', contract: 1, field: 'name', value: 0, forbidden: false },
        { kind: 'sync' },
        { kind: 'edit', contract: 1, field: 'name', value: 0, forbidden: false },
        { kind: 'sync' },
        { kind: 'settle', mine: true },
      ],
      pushFaults: [],
      pullFaults: [],
    }));

  it('refuses a pull page behind the cursor', () =>
    check({ actions: [{ kind: 'sync' }, { kind: 'sync' }], pushFaults: [], pullFaults: ['ok', 'ok', 'behind'] }));

  it('converges with the server, applies each edit once, shows pending writes, moves the cursor forward', async () => {
    await fc.assert(fc.asyncProperty(scenario, check), {
      seed: Number(process.env.SYNC_PROPERTY_SEED ?? 20261121),
      numRuns: Number(process.env.SYNC_PROPERTY_RUNS ?? 1000),
    });
  }, 120_000);
});
