import type { SyncTransport, Timer } from '../../src-main/core/sync/sync-engine';
import { cursorPosition, syncPushRequestSchema, type MutationEnvelope, type MutationResult, type SyncChange, type SyncContract, type SyncPushRequest } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import { conflictingGroups, conflictIssue } from '../../src-shared/sync/field-versions';
import { fieldsOf, mutations, rowKey } from '../../src-shared/sync/mutations';
import { makeContract } from '../support/contracts';

// Fakes for the sync engine tests: an in-memory server with the push semantics of sync rules 2
// and 6 (exactly once by mutation id, conflicts per field from base versions, permanent rejections), a
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
  /** The version at which each field of each row last changed (the real server's field_versions). */
  private readonly fieldVersions = new Map<string, Record<string, number>>();
  /** Every field change, for the tests to judge the decisions by on their own. */
  readonly history: { id: string; field: string; version: number }[] = [];
  /** What each edit that reached the server changed, on which base, and where it conflicted. */
  readonly decisions: { id: string; row: string; base: number; changed: string[]; conflicting: string[]; historyBefore: number }[] = [];

  constructor() {
    for (let i = 1; i <= contractCount; i++) this.write(makeContract(i));
  }

  private write(row: SyncContract) {
    this.rows.set(row.id, row);
    this.log.push({ position: this.log.length + 1, change: { entity: 'contract', op: 'upsert', row } });
  }

  /** Records the fields a write changed, at the row's new version. */
  private changedFields(row: SyncContract, next: SyncContract, fields: readonly string[]) {
    const versions = this.fieldVersions.get(row.id) ?? {};
    for (const field of fields) {
      versions[field] = next.version;
      this.history.push({ id: row.id, field, version: next.version });
    }
    this.fieldVersions.set(row.id, versions);
  }

  /** Another user's edit of one field: a push that changes the same field, based on an older version, conflicts. */
  editElsewhere(index: number, field: 'name' | 'contractNumber' | 'signDate', value: string) {
    const row = this.rows.get(makeContract(index).id)!;
    this.lastWriter.delete(row.id);
    const next = { ...row, [field]: value, version: row.version + 1 };
    this.write(next);
    if (row[field] !== value) this.changedFields(row, next, [field]);
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
    const base = m.baseVersions[key] ?? -1;
    const { formValues, ...patch } = args.data.patch;
    const changed = Object.entries(patch).filter(([field, value]) => row[field as keyof SyncContract] !== value).map(([field]) => field);
    // As the real server: only the groups the registry declares the edit changes can conflict (the
    // property test judges by every changed field, so a group missing from the declaration fails it).
    const declared = fieldsOf('contract.update', args.data)(key);
    const judged = changed.filter((field) => declared.includes(field));
    // As the real server: a base ahead of the row conflicts whole; an older one only where a field this edit changes moved since.
    const conflicting = base > row.version || base < 0 ? ['*'] : conflictingGroups(this.fieldVersions.get(row.id) ?? {}, judged, base);
    this.decisions.push({ id: m.id, row: row.id, base, changed, conflicting, historyBefore: this.history.length });
    if (conflicting.length > 0) {
      if ((this.lastWriter.get(row.id) ?? Infinity) < m.seq) this.selfConflicts.push(m.id);
      const issues = conflicting.filter((field) => field !== '*').map(conflictIssue);
      return { id: m.id, status: 'conflict', error: { code: 'conflict', message: 'changed', ...(issues.length > 0 && { issues }) }, current: [{ entity: 'contract', op: 'upsert', row }] };
    }
    const next = { ...row, ...patch, formValues: { ...row.formValues, ...formValues }, version: row.version + 1 };
    this.write(next);
    this.changedFields(row, next, changed);
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
