import type { SyncTransport, Timer } from '../../src-main/core/sync/sync-engine';
import { cursorPosition, syncPushRequestSchema, type MutationEnvelope, type MutationResult, type SyncChange, type SyncContract, type SyncPushRequest } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import { mutations, rowKey } from '../../src-shared/sync/mutations';
import { makeContract } from '../support/contracts';

// Fakes for the sync engine tests: an in-memory server with the push semantics of sync rules 2
// and 6 (exactly once by mutation id, conflicts from base versions, permanent rejections), a
// transport that drops, duplicates, delays and refuses messages, and a timer run by hand.

export const contractCount = 3;
const pullLimit = 2;

export class FakeServer {
  readonly rows = new Map<string, SyncContract>();
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

  private write(row: SyncContract) {
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
    // The fake server knows only the edit of the engine tests.
    const args = m.name === 'contract.update' ? mutations['contract.update'].args.safeParse(m.args) : null;
    if (!args?.success) return { id: m.id, status: 'rejected', error: { code: 'validation_failed', message: 'bad args' } };
    const row = this.rows.get(args.data.id);
    if (!row) return { id: m.id, status: 'rejected', error: { code: 'not_found', message: 'no such contract' } };
    if (args.data.patch.name?.startsWith('forbidden')) return { id: m.id, status: 'rejected', error: { code: 'forbidden', message: 'not yours' } };
    const key = rowKey('contract', row.id);
    if (m.baseVersions[key] !== row.version) {
      if ((this.lastWriter.get(row.id) ?? Infinity) < m.seq) this.selfConflicts.push(m.id);
      return { id: m.id, status: 'conflict', error: { code: 'conflict', message: 'changed' }, current: [{ entity: 'contract', op: 'upsert', row }] };
    }
    const { formValues, ...patch } = args.data.patch;
    const next = { ...row, ...patch, formValues: { ...row.formValues, ...formValues }, version: row.version + 1 };
    this.write(next);
    this.lastWriter.set(row.id, m.seq);
    this.effects.set(m.id, (this.effects.get(m.id) ?? 0) + 1);
    return { id: m.id, status: 'applied', versions: { [key]: next.version } };
  }

  pull(cursor: string) {
    const after = this.log.filter((entry) => BigInt(entry.position) > cursorPosition(cursor));
    const page = after.slice(0, pullLimit);
    const position = page.at(-1)?.position;
    return {
      changes: page.map((entry) => entry.change),
      // Like the real server, a cursor in the middle of the feed carries an opaque suffix.
      cursor: position === undefined ? cursor : after.length > page.length ? `${position}.${after.length}` : String(position),
      hasMore: after.length > page.length,
      remaining: after.length - page.length,
    };
  }
}

export const pushFaults = ['ok', 'dropRequest', 'dropResponse', 'duplicate', 'delay', '5xx', '429', '401', '401-refused', 'garbage'] as const;
export const pullFaults = ['ok', 'drop', 'duplicate', '5xx', '401', 'garbage', 'behind'] as const;
type PushFault = (typeof pushFaults)[number];
type PullFault = (typeof pullFaults)[number];

export class FaultyTransport implements SyncTransport {
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

export class ManualTimer implements Timer {
  private next = 0;
  readonly due = new Map<number, { callback: () => unknown; ms: number }>();
  set(callback: () => unknown, ms: number) {
    this.next += 1;
    this.due.set(this.next, { callback, ms });
    return this.next;
  }
  clear(handle: unknown) {
    this.due.delete(handle as number);
  }
  /** Runs everything due and waits for what it started. */
  async fireAll() {
    const callbacks = [...this.due.values()];
    this.due.clear();
    await Promise.all(callbacks.map(({ callback }) => callback()));
  }
}
