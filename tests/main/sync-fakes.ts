import { isDeepStrictEqual } from 'node:util';
import type { SyncTransport, Timer } from '../../src-main/core/sync/sync-engine';
import { cursorPosition, syncPushRequestSchema, type MutationEnvelope, type MutationResult, type SyncChange, type SyncContract, type SyncPushRequest, type SyncScene } from '../../src-shared/api/sync';
import { ContractStatus } from '../../src-shared/domain/enums';
import { AppFailure } from '../../src-shared/errors';
import { blankContractFields } from '../../src-shared/rules/blank-contract';
import { ledgerTerms, termsHeldByForm } from '../../src-shared/rules/contract-terms';
import { approvalTransitions, isEditableStatus, stepRefusal } from '../../src-shared/rules/contract-status';
import { withDefaultScene } from '../../src-shared/rules/scenes';
import { byFieldGroup, conflictingGroups, conflictIssue } from '../../src-shared/sync/field-versions';
import { fieldsOf, isMutationName, mutations, rowKey, rowsOf, type MutationArgs, type RowKey } from '../../src-shared/sync/mutations';
import { makeContract } from '../support/contracts';

// Fakes for the sync engine tests: an in-memory server with the push semantics of sync rules 2
// and 6 (exactly once by mutation id, conflicts per field from base versions, permanent rejections), a
// transport that drops, duplicates, delays and refuses messages, and a timer run by hand.
//
// The server is a model of the real one, deciding by the same shared rules: the contracts' terms
// derived from their (blank) form's values, numbers given to drafts, approval steps decided by the
// status when they apply, and the user's scenes with one default, which a set-default moves on
// every scene (a change of rows the mutation does not name).

export const contractCount = 3;
const pullLimit = 2;

/** The ids of the user's scenes the server starts with; the first is the default. */
export const seededScenes = ['00000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000002'];

/** A scene as the feed carries it. */
function makeScene(id: string, name: string, sortOrder: number, isDefault: boolean): SyncScene {
  return { id, name, isDefault, isSystem: false, performanceId: null, filterIDs: [], titleIDs: ['name'], filter: [], sortField: null, sortOrder, version: 1, updateTime: '2026-01-01T00:00:00.000Z' };
}

/** A contract as its form's values leave it: the terms its (blank) form holds are the form's, as on the real server. */
const withForm = (row: SyncContract, formValues: Record<string, unknown>): SyncContract => ({ ...row, formValues, ...ledgerTerms(blankContractFields, formValues) });

type Refusal = Extract<MutationResult, { status: 'rejected' }>['error'];

export class FakeServer {
  readonly rows = new Map<string, SyncContract>();
  readonly scenes = new Map<string, SyncScene>();
  /** The numbers the rules gave to drafts, in order. */
  private numbered = 0;
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
    // Drafts, so that edits and approval steps apply; the signing date is the form's.
    for (let i = 1; i <= contractCount; i++) this.write(withForm(makeContract(i, { status: ContractStatus.Drafting }), { signDate: '2026-01-01' }));
    seededScenes.forEach((id, i) => this.writeScene(makeScene(id, `Scene ${i + 1}`, i, i === 0)));
  }

  private write(row: SyncContract) {
    this.rows.set(row.id, row);
    this.log.push({ position: this.log.length + 1, change: { entity: 'contract', op: 'upsert', row } });
  }

  private writeScene(row: SyncScene) {
    this.scenes.set(row.id, row);
    this.log.push({ position: this.log.length + 1, change: { entity: 'scene', op: 'upsert', row } });
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

  /**
   * Another user's edit of one field: a push that changes the same field, based on an older
   * version, conflicts. The signing date changes in the form (and so in its column), as the REST
   * save of the form changes it.
   */
  editElsewhere(index: number, field: 'name' | 'contractNumber' | 'signDate', value: string) {
    const row = this.rows.get(makeContract(index).id)!;
    this.lastWriter.delete(row.id);
    const next = field === 'signDate' ? withForm({ ...row, version: row.version + 1 }, { ...row.formValues, signDate: value }) : { ...row, [field]: value, version: row.version + 1 };
    this.write(next);
    this.changedFields(row, next, changedGroupsOf(row, next));
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
    const parsed = isMutationName(m.name) ? mutations[m.name].args.safeParse(m.args) : null;
    if (!parsed?.success) return { id: m.id, status: 'rejected', error: { code: 'validation_failed', message: 'bad args' } };
    const refused = (error: Refusal): MutationResult => ({ id: m.id, status: 'rejected', error });
    const applied = (): MutationResult => {
      this.effects.set(m.id, (this.effects.get(m.id) ?? 0) + 1);
      const { touches, creates, moves } = rowsOf(m.name as 'contract.update', parsed.data);
      return { id: m.id, status: 'applied', versions: Object.fromEntries([...touches, ...creates, ...moves].map((key) => [key, this.versionOf(key)])) };
    };
    switch (m.name) {
      case 'contract.update':
        return this.update(m, parsed.data as MutationArgs<'contract.update'>, refused, applied);
      case 'contract.create': {
        const args = parsed.data as MutationArgs<'contract.create'>;
        if (this.rows.has(args.id)) return refused({ code: 'conflict', message: 'exists' });
        // The rules give a draft without a number the next one; the client's provisional one was only shown.
        const contractNumber = args.contractNumber ?? `AUTO-${(this.numbered += 1)}`;
        const base = makeContract(1, { id: args.id, name: args.name, contractNumber, contractNumberAuto: args.contractNumber === null, status: ContractStatus.Drafting, contractTypeName: null, counterpartName: null, counterpartyId: null, templateId: null, contractTypeId: null });
        this.write(withForm(base, args.formValues));
        return { ...applied(), outcome: { contractNumber } } as MutationResult;
      }
      case 'contract.approvalStep': {
        const args = parsed.data as MutationArgs<'contract.approvalStep'>;
        const row = this.rows.get(args.id);
        if (!row) return refused({ code: 'not_found', message: 'no such contract' });
        // Decided by the status when it applies (an approver's step: the user is an administrator).
        const refusal = stepRefusal('contract', args.action, row.status, 'admin');
        if (refusal) return refused(refusal.error);
        const next = { ...row, status: approvalTransitions[args.action].to, version: row.version + 1 };
        this.write(next);
        this.changedFields(row, next, ['status']);
        this.lastWriter.set(row.id, m.seq);
        return applied();
      }
      case 'scene.create': {
        const args = parsed.data as MutationArgs<'scene.create'>;
        if (this.scenes.has(args.id)) return refused({ code: 'conflict', message: 'exists' });
        this.writeScene(makeScene(args.id, args.name, this.scenes.size, false));
        return applied();
      }
      case 'scene.setDefault': {
        const { id } = parsed.data as MutationArgs<'scene.setDefault'>;
        if (!this.scenes.has(id)) return refused({ code: 'not_found', message: 'no such scene' });
        // One default: every scene whose mark moves changes, the ones the mutation does not name too.
        for (const scene of withDefaultScene([...this.scenes.values()], id)) {
          if (scene.isDefault !== this.scenes.get(scene.id)!.isDefault) this.writeScene({ ...scene, version: scene.version + 1 });
        }
        return applied();
      }
      default:
        return refused({ code: 'bad_request', message: `the fake server does not implement ${m.name}` });
    }
  }

  private versionOf(key: RowKey): number {
    const id = key.slice(key.indexOf(':') + 1);
    return (key.startsWith('scene:') ? this.scenes.get(id)?.version : this.rows.get(id)?.version) ?? 0;
  }

  private update(m: MutationEnvelope, args: MutationArgs<'contract.update'>, refused: (error: Refusal) => MutationResult, applied: () => MutationResult): MutationResult {
    const row = this.rows.get(args.id);
    if (!row) return refused({ code: 'not_found', message: 'no such contract' });
    if (args.patch.name?.startsWith('forbidden')) return refused({ code: 'forbidden', message: 'not yours' });
    // As the real server: a contract past drafting is not edited, and a term its form holds is changed in the form.
    if (!isEditableStatus(row.status)) return refused({ code: 'conflict', message: 'not editable' });
    const { formValues, ...patch } = args.patch;
    const nextForm = { ...row.formValues, ...formValues };
    if (termsHeldByForm(blankContractFields, nextForm, patch).length > 0) return refused({ code: 'validation_failed', message: 'a term of the form' });
    const key = rowKey('contract', row.id);
    const base = m.baseVersions[key] ?? -1;
    const next = { ...withForm({ ...row, ...patch }, nextForm), version: row.version + 1 };
    const changed = changedGroupsOf(row, next);
    // What the edit itself changes (the columns its form values derive are not its own edit).
    const shown = byFieldGroup(row as unknown as Record<string, unknown>);
    const edited = Object.entries(byFieldGroup(args.patch)).filter(([group, value]) => !isDeepStrictEqual(shown[group], value)).map(([group]) => group);
    // As the real server: only the groups the registry declares the edit changes can conflict (the
    // property test judges by every changed field, so a group missing from the declaration fails it).
    const declared = fieldsOf('contract.update', args)(key);
    const judged = edited.filter((field) => declared.includes(field));
    // As the real server: a base ahead of the row conflicts whole; an older one only where a field this edit changes moved since.
    const conflicting = base > row.version || base < 0 ? ['*'] : conflictingGroups(this.fieldVersions.get(row.id) ?? {}, judged, base);
    this.decisions.push({ id: m.id, row: row.id, base, changed: edited, conflicting, historyBefore: this.history.length });
    if (conflicting.length > 0) {
      if ((this.lastWriter.get(row.id) ?? Infinity) < m.seq) this.selfConflicts.push(m.id);
      const issues = conflicting.filter((field) => field !== '*').map(conflictIssue);
      return { id: m.id, status: 'conflict', error: { code: 'conflict', message: 'changed', ...(issues.length > 0 && { issues }) }, current: [{ entity: 'contract', op: 'upsert', row }] };
    }
    this.write(next);
    this.changedFields(row, next, changed);
    this.lastWriter.set(row.id, m.seq);
    return applied();
  }

  /** The scene the server holds as the default. */
  defaultScene(): string | undefined {
    return [...this.scenes.values()].find((scene) => scene.isDefault)?.id;
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

/** The field groups whose values differ between two states of a contract (its form's values each a group, derived columns too). */
function changedGroupsOf(before: SyncContract, after: SyncContract): string[] {
  const a = byFieldGroup(before as unknown as Record<string, unknown>);
  const b = byFieldGroup(after as unknown as Record<string, unknown>);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((group) => !['version', 'updateTime'].includes(group) && !isDeepStrictEqual(a[group], b[group]));
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
