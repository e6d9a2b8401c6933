import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractReader, metaReader, replicaWriter } from '../../src-main/core/data/contract-replica';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { createSyncEngine, type SyncTransport, type Timer } from '../../src-main/core/sync/sync-engine';
import { clientMigrationsDir } from '../../src-main/paths';
import { syncPushRequestSchema, type MutationEnvelope, type MutationResult, type SyncChange, type SyncPushRequest } from '../../src-shared/api/sync';
import type { Contract } from '../../src-shared/domain/contract';
import { AppFailure } from '../../src-shared/errors';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { isMutationName, mutations, rowKey } from '../../src-shared/sync/mutations';
import { makeContract } from '../support/contracts';

// The client engine against an in-memory server with the push semantics of sync rules 2 and 6
// (exactly once by mutation id, conflicts from base versions, permanent rejections) behind a
// transport that drops, duplicates, delays and refuses messages.

const contractCount = 3;
const pullLimit = 2;

class FakeServer {
  readonly rows = new Map<string, Contract>();
  readonly log: { position: number; change: SyncChange }[] = [];
  readonly processed = new Map<string, MutationResult>();
  /** How often each mutation took effect: must never exceed one. */
  readonly effects = new Map<string, number>();
  /** The seq of the client mutation that last wrote each row (absent: the seed or another user). */
  private readonly lastWriter = new Map<string, number>();
  /** Conflicts of the client with its own earlier edit: an edit must build on the ones before it. */
  readonly selfConflicts: string[] = [];

  constructor() {
    for (let i = 1; i <= contractCount; i++) this.write(makeContract(i));
  }

  private write(row: Contract) {
    this.rows.set(row.id, row);
    this.log.push({ position: this.log.length + 1, change: { entity: 'contract', op: 'upsert', row } });
  }

  /** Another user's edit: the next push based on the older version conflicts. */
  editElsewhere(index: number, name: string) {
    const row = this.rows.get(makeContract(index).id)!;
    this.lastWriter.delete(row.id);
    this.write({ ...row, name, version: row.version + 1 });
  }

  push(request: SyncPushRequest) {
    syncPushRequestSchema.parse(request);
    return { results: request.mutations.map((m) => this.apply(m)) };
  }

  private apply(m: MutationEnvelope): MutationResult {
    const replay = this.processed.get(m.id);
    if (replay) return replay;
    const result = this.decide(m);
    this.processed.set(m.id, result);
    return result;
  }

  private decide(m: MutationEnvelope): MutationResult {
    const args = isMutationName(m.name) ? mutations[m.name].args.safeParse(m.args) : null;
    if (!args?.success) return { id: m.id, status: 'rejected', error: { code: 'validation_failed', message: 'bad args' } };
    const row = this.rows.get(args.data.id);
    if (!row) return { id: m.id, status: 'rejected', error: { code: 'not_found', message: 'no such contract' } };
    if (args.data.patch.name?.startsWith('forbidden')) return { id: m.id, status: 'rejected', error: { code: 'forbidden', message: 'not yours' } };
    const key = rowKey('contract', row.id);
    if (m.baseVersions[key] !== row.version) {
      if ((this.lastWriter.get(row.id) ?? Infinity) < m.seq) this.selfConflicts.push(m.id);
      return { id: m.id, status: 'conflict', error: { code: 'conflict', message: 'changed' }, current: [{ entity: 'contract', op: 'upsert', row }] };
    }
    const next = { ...row, ...args.data.patch, version: row.version + 1 };
    this.write(next);
    this.lastWriter.set(row.id, m.seq);
    this.effects.set(m.id, (this.effects.get(m.id) ?? 0) + 1);
    return { id: m.id, status: 'applied', versions: { [key]: next.version } };
  }

  pull(cursor: string) {
    const after = this.log.filter((entry) => entry.position > Number(cursor));
    const page = after.slice(0, pullLimit);
    return {
      changes: page.map((entry) => entry.change),
      cursor: String(page.at(-1)?.position ?? cursor),
      hasMore: after.length > page.length,
      remaining: after.length - page.length,
    };
  }
}

const pushFaults = ['ok', 'dropRequest', 'dropResponse', 'duplicate', 'delay', '5xx', '429', '401', '401-refused', 'garbage'] as const;
const pullFaults = ['ok', 'drop', 'duplicate', '5xx', '401', 'garbage', 'behind'] as const;
type PushFault = (typeof pushFaults)[number];
type PullFault = (typeof pullFaults)[number];

class FaultyTransport implements SyncTransport {
  pushFaults: PushFault[] = [];
  pullFaults: PullFault[] = [];
  /** Pushes held in the network, delivered later (out of order) or never answered. */
  readonly held: SyncPushRequest[] = [];
  tokenValid = true;
  refreshRefused = false;

  constructor(private readonly server: FakeServer) {}

  private authorize() {
    if (!this.tokenValid) throw new AppFailure('unauthorized');
  }

  async push(request: SyncPushRequest) {
    const fault = this.pushFaults.shift() ?? 'ok';
    if (fault === '401' || fault === '401-refused') {
      this.tokenValid = false;
      this.refreshRefused = fault === '401-refused';
    }
    this.authorize();
    switch (fault) {
      case 'dropRequest':
        throw new AppFailure('server_unreachable');
      case 'dropResponse':
        this.server.push(request);
        throw new AppFailure('server_unreachable');
      case 'duplicate':
        this.server.push(request);
        return this.server.push(request);
      case 'delay':
        this.held.push(structuredClone(request));
        throw new AppFailure('server_unreachable');
      case '5xx':
        throw new AppFailure('server_error');
      case '429':
        throw new AppFailure('rate_limited');
      case 'garbage': {
        const { results } = this.server.push(request);
        return { results: results.map((r, i) => (i % 2 === 0 ? { ...r, status: 'maybe' } : r)) } as never;
      }
      default:
        return this.server.push(request);
    }
  }

  async pull(cursor: string) {
    const fault = this.pullFaults.shift() ?? 'ok';
    if (fault === '401') this.tokenValid = false;
    this.authorize();
    switch (fault) {
      case 'drop':
        throw new AppFailure('server_unreachable');
      case '5xx':
        throw new AppFailure('server_error');
      case 'duplicate':
        this.server.pull(cursor);
        return this.server.pull(cursor);
      case 'garbage':
        return { changes: 'nope' } as never;
      case 'behind':
        return { changes: [], cursor: '0', hasMore: false, remaining: 0 };
      default:
        return this.server.pull(cursor);
    }
  }

  deliverHeld(index: number) {
    const [request] = this.held.splice(index % this.held.length, 1);
    if (request) this.server.push(request);
  }

  async refresh() {
    if (this.refreshRefused) throw new AppFailure('unauthorized');
    this.tokenValid = true;
  }
}

class ManualTimer implements Timer {
  private next = 0;
  readonly due = new Map<number, () => void>();
  set(callback: () => void) {
    this.next += 1;
    this.due.set(this.next, callback);
    return this.next;
  }
  clear(handle: unknown) {
    this.due.delete(handle as number);
  }
  fireAll() {
    const callbacks = [...this.due.values()];
    this.due.clear();
    for (const callback of callbacks) callback();
  }
}

const field = fc.constantFrom('name', 'contractNumber', 'signDate');
const action = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('edit' as const), contract: fc.integer({ min: 1, max: contractCount }), field, value: fc.integer({ min: 0, max: 9 }), forbidden: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('editElsewhere' as const), contract: fc.integer({ min: 1, max: contractCount }), value: fc.integer({ min: 0, max: 9 }) }) },
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

const patchFor = (a: Extract<Action, { kind: 'edit' }>) =>
  a.field === 'name' ? { name: `${a.forbidden ? 'forbidden' : 'mine'} ${a.value}` } : a.field === 'contractNumber' ? { contractNumber: `N-${a.value}` } : { signDate: `2026-01-1${a.value}` };

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const everything = ledgerContractPageRequestSchema.parse({ pageNum: 1, pageSize: 50, status: null, q: '', sort: { field: 'updateTime', order: 'asc' } });

async function check({ actions, pushFaults: pushPlan, pullFaults: pullPlan }: Scenario) {
  const server = new FakeServer();
  const transport = new FaultyTransport(server);
  transport.pushFaults = [...pushPlan];
  transport.pullFaults = [...pullPlan];
  const timer = new ManualTimer();
  const replica = openReplica(':memory:', clientMigrationsDir);
  try {
    const outbox = createOutbox(replica, { clock: { now: () => new Date('2026-11-21T10:00:00Z') } });
    const meta = metaReader(replica);
    const engine = createSyncEngine({
      outbox, meta, writer: replicaWriter(replica), transport, timer, logger: silentLogger,
      clientId: '0192f000-0000-7000-8000-000000000001', refreshAuth: () => transport.refresh(),
      clock: { now: () => new Date('2026-11-21T10:00:00Z') }, random: () => 0.5,
    });
    const shown = () => new Map(contractReader(replica).page(everything).list.map((c) => [c.id, c]));
    const enqueued: string[] = [];
    const dismissed = new Set<string>();
    let cursor = 0n;

    const invariants = () => {
      const next = BigInt(meta.cursor());
      expect(next).toBeGreaterThanOrEqual(cursor);
      cursor = next;
      for (const count of server.effects.values()) expect(count).toBe(1);
      expect(server.selfConflicts).toEqual([]);
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
        case 'edit':
          enqueued.push(outbox.enqueue('contract.update', { id: makeContract(a.contract).id, patch: patchFor(a) }).id);
          break;
        case 'editElsewhere':
          server.editElsewhere(a.contract, `theirs ${a.value}`);
          break;
        case 'sync':
          await engine.syncNow();
          break;
        case 'tick':
          timer.fireAll();
          await engine.stop();
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
    expect(shown()).toEqual(server.rows);
    // Each edit took effect exactly once, or is shown to the user as refused or in conflict.
    const problems = new Map(status.problems.map((p) => [p.id, p]));
    for (const id of enqueued) {
      const problem = problems.get(id);
      if (dismissed.has(id) || problem?.state === 'conflict') expect(server.effects.has(id)).toBe(false);
      else if (!problem) expect(server.effects.get(id)).toBe(1);
      // Only a mutation set aside for want of a valid answer may have taken effect unseen.
      else if (problem.error?.code !== 'bad_request') expect(server.effects.has(id)).toBe(false);
      // (an applied-then-conflict cannot happen: the server stores one result per id)
    }
  } finally {
    replica.close();
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
