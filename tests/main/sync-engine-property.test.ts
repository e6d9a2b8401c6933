import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { readScenes } from '../../src-main/core/ledger/scene-store';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox, setReplicaOwner } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { createSyncEngine } from '../../src-main/core/sync/sync-engine';
import { clientMigrationsDir } from '../../src-main/paths';
import { cursorPosition } from '../../src-shared/api/sync';
import { contractSchema } from '../../src-shared/domain/contract';
import { AppFailure } from '../../src-shared/errors';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import type { MutationArgs, MutationName } from '../../src-shared/sync/mutations';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { contractCount, FakeServer, FaultyTransport, ManualTimer, pullFaults, pushFaults, seededScenes } from './sync-fakes';
import { replicaFeatures } from '../../src-main/core/features';

// The client engine against the fake exactly-once server behind a faulty transport: random local
// edits, other users' edits, syncs, timers, late deliveries, sign-ins and conflict settlements.
// The model holds what the server derives (a contract's signing date from its form, the numbers
// of drafts, the status an approval step leads to) and changes beyond the rows an edit names (one
// default scene), and drafts and scenes made offline followed by edits of them and of other rows:
// after the last sync the device shows exactly the server's rows, and the last default chosen wins.

const field = fc.constantFrom('name', 'contractNumber', 'signDate');
/** Which contract or scene an action is about: an index into those the run knows (seeded, then made here). */
const target = fc.nat({ max: 7 });
const action = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('edit' as const), contract: target, field, value: fc.integer({ min: 0, max: 9 }), forbidden: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('editBesideForm' as const), contract: target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('editElsewhere' as const), contract: fc.integer({ min: 1, max: contractCount }), field, value: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('draft' as const), numbered: fc.boolean(), value: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('step' as const), contract: target, action: fc.constantFrom('submit' as const, 'approve' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('makeScene' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('setDefault' as const), scene: target }) },
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

/** An edit of one field; the signing date is its form's, so it changes in the form. */
const patchFor = (a: Extract<Action, { kind: 'edit' }>) =>
  a.field === 'name' ? { name: `${a.forbidden ? 'forbidden' : 'mine'} ${a.value}` } : a.field === 'contractNumber' ? { contractNumber: `N-${a.value}` } : { formValues: { signDate: `2026-01-1${a.value}` } };
/** The n-th id a run makes, of drafts (b) or scenes (9), in the shape the registry takes. */
const madeId = (kind: 'b' | '9', n: number) => `00000000-0000-4000-${kind}000-${String(n).padStart(12, '0')}`;

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
    // Time moves on with every edit: the default shown is the one chosen last.
    let ticks = 0;
    const clock = { now: () => new Date(Date.UTC(2026, 10, 21, 10) + (ticks += 1) * 1000) };
    const outbox = createOutbox(replica, { features: replicaFeatures, clock });
    // An administrator's device: approval steps are theirs to take.
    setReplicaOwner(replica.db, { id: 'u-1', username: 'admin', displayName: 'Admin', role: 'admin', departmentId: 'd-1', departmentName: 'Legal' });
    const meta = metaReader(replica);
    const engine = createSyncEngine({
      outbox, meta, writer: replicaWriter(replica, replicaFeatures), transport, timer, logger: silentLogger,
      clientId: '0192f000-0000-7000-8000-000000000001', refreshAuth: () => transport.refresh(), clock, random: () => 0.5,
    });
    const ledger = contractReader(replica);
    const shown = () => new Map(ledger.page(everything).list.map((c) => [c.id, c]));
    const enqueued: string[] = [];
    const dismissed = new Set<string>();
    let cursor = 0n;
    const contracts = Array.from({ length: contractCount }, (_, i) => makeContract(i + 1).id);
    const scenes = [...seededScenes];
    const pick = (known: string[], n: number) => known[n % known.length]!;
    /** The scene each queued set-default chose, in the order chosen. */
    const defaults: { id: string; scene: string }[] = [];
    /** Queues an edit the core may refuse at once, as the server would; a refused one queues nothing. */
    const attempt = <N extends MutationName>(name: N, args: MutationArgs<N>): string | null => {
      const queued = outbox.status().queued;
      try {
        const { id } = outbox.enqueue(name, args);
        enqueued.push(id);
        return id;
      } catch (error) {
        if (!(error instanceof AppFailure)) throw error;
        expect(outbox.status().queued).toBe(queued);
        return null;
      }
    };

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
      // The user always sees their own unconfirmed writes: the last live value of each field (a
      // signing date set in the form shows in its column), and the last default chosen.
      const live = replica.sqlite.prepare("select name, args from outbox where state in ('pending', 'applied') order by seq").all() as { name: string; args: string }[];
      const expected = new Map<string, Record<string, unknown>>();
      let chosen: string | undefined;
      for (const { name, args } of live) {
        if (name === 'scene.setDefault') chosen = (JSON.parse(args) as { id: string }).id;
        if (name !== 'contract.update') continue;
        const { id, patch } = JSON.parse(args) as { id: string; patch: { formValues?: { signDate?: string } } & Record<string, unknown> };
        const { formValues, ...direct } = patch;
        expected.set(id, { ...expected.get(id), ...direct, ...(formValues?.signDate !== undefined && { signDate: formValues.signDate }) });
      }
      const rows = shown();
      for (const [id, fields] of expected) if (rows.has(id)) expect(rows.get(id)).toMatchObject(fields);
      if (chosen) expect(readScenes(replica.db).find((scene) => scene.isDefault)?.id).toBe(chosen);
    };

    for (const a of actions) {
      switch (a.kind) {
        case 'edit': {
          const id = pick(contracts, a.contract);
          const patch = patchFor(a);
          const edit = () => outbox.enqueue('contract.update', { id, patch }).id;
          const rows = shown();
          // A contract not pulled yet is not the user's to edit here: refused at once, nothing queued.
          if (!rows.has(id)) expect(edit).toThrow(`contract:${id} does not exist`);
          // So is a number another contract shown here carries.
          else if ('contractNumber' in patch && [...rows].some(([other, row]) => other !== id && row.contractNumber === patch.contractNumber)) expect(edit).toThrow('this number duplicates');
          else enqueued.push(edit());
          break;
        }
        case 'editBesideForm': {
          // The form holds the signing date: set beside it, it would be lost at the form's next write. Refused at once.
          const id = pick(contracts, a.contract);
          if (shown().has(id)) expect(() => outbox.enqueue('contract.update', { id, patch: { signDate: '2030-01-01' } })).toThrow('is a field of this contract');
          break;
        }
        case 'draft': {
          const id = madeId('b', contracts.length);
          contracts.push(id);
          const contractNumber = a.numbered ? `OWN-${contracts.length}` : null;
          attempt('contract.create', { id, name: `Draft ${a.value}`, templateId: null, contractTypeId: null, contractNumber, provisionalNumber: null, formValues: { signDate: `2026-03-0${a.value}` } });
          break;
        }
        case 'step':
          attempt('contract.approvalStep', { id: pick(contracts, a.contract), action: a.action });
          break;
        case 'makeScene': {
          const id = madeId('9', scenes.length);
          scenes.push(id);
          attempt('scene.create', { id, name: `Made ${scenes.length}`, titleIDs: [], filterIDs: [], filter: [], sortField: null, performanceId: null });
          break;
        }
        case 'setDefault': {
          const scene = pick(scenes, a.scene);
          const id = attempt('scene.setDefault', { id: scene });
          if (id) defaults.push({ id, scene });
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
    // The ledger shows the server's rows, derived columns and numbers included (without the form's columns, which it does not list).
    expect(shown()).toEqual(new Map([...server.rows].map(([id, row]) => [id, contractSchema.parse(row)])));
    // The scenes are the server's, with its one default: the one chosen last, every set-default
    // having taken effect in the order made (unless one was set aside unanswered).
    const sceneList = (list: { id: string; name: string; isDefault: boolean }[]) => list.map(({ id, name, isDefault }) => ({ id, name, isDefault })).sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(sceneList(readScenes(replica.db))).toEqual(sceneList([...server.scenes.values()]));
    const setAside = status.problems.some((p) => p.error?.code === 'bad_request');
    if (defaults.length > 0 && !setAside) expect(server.defaultScene()).toBe(defaults.at(-1)!.scene);
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

  it('keeps the later default when an earlier one waits behind the making of its scene (the lost default)', () =>
    check({
      actions: [{ kind: 'sync' }, { kind: 'makeScene' }, { kind: 'setDefault', scene: 2 }, { kind: 'setDefault', scene: 1 }],
      pushFaults: [],
      pullFaults: [],
    }));

  it('merges a signing date changed in the form with a rename elsewhere, and refuses one set beside the form at once (the two-device divergence)', () =>
    check({
      actions: [
        { kind: 'sync' },
        { kind: 'editBesideForm', contract: 0 },
        { kind: 'edit', contract: 0, field: 'signDate', value: 5, forbidden: false },
        { kind: 'editElsewhere', contract: 1, field: 'name', value: 3 },
        { kind: 'sync' },
      ],
      pushFaults: [],
      pullFaults: [],
    }));

  it('numbers a draft, then edits it and another contract made before it, in the order made', () =>
    check({
      actions: [
        { kind: 'sync' },
        { kind: 'draft', numbered: false, value: 1 },
        { kind: 'edit', contract: 3, field: 'signDate', value: 2, forbidden: false },
        { kind: 'edit', contract: 0, field: 'name', value: 4, forbidden: false },
        { kind: 'step', contract: 3, action: 'submit' },
        { kind: 'step', contract: 3, action: 'approve' },
        { kind: 'sync' },
      ],
      pushFaults: ['dropResponse'],
      pullFaults: [],
    }));

  it('edits a draft that the first sync confirmed while the search index stood aside (seed 261)', () =>
    check({ actions: [{ kind: 'draft', numbered: false, value: 0 }, { kind: 'sync' }, { kind: 'edit', contract: 7, field: 'name', value: 0, forbidden: false }], pushFaults: [], pullFaults: [] }));

  it('refuses a pull page behind the cursor', () =>
    check({ actions: [{ kind: 'sync' }, { kind: 'sync' }], pushFaults: [], pullFaults: ['ok', 'ok', 'behind'] }));

  it('converges with the server, applies each edit once, shows pending writes, moves the cursor forward', async () => {
    await fc.assert(fc.asyncProperty(scenario, check), {
      seed: Number(process.env.SYNC_PROPERTY_SEED ?? 20261121),
      numRuns: Number(process.env.SYNC_PROPERTY_RUNS ?? 1000),
    });
  }, 120_000);
});
