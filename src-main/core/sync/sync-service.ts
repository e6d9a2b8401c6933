import { isDeepStrictEqual } from 'node:util';
import { AppFailure, toAppError } from '../../../src-shared/errors';
import { issueFieldGroup } from '../../../src-shared/sync/field-versions';
import { waitingListed, type SyncProblem, type SyncStatus, type WaitingChange } from '../../../src-shared/ipc/channels';
import { isMutationName, mutableEntities, mutations, type MutationArgs, type MutationName } from '../../../src-shared/sync/mutations';
import { createOutbox, type OutboxProblem } from '../data/outbox';
import { overlayEntities, overlayOf, splitRowKey, type ClientMutation, type DataEntity, type MutationView, type OverlayEntity } from '../data/replica-features';
import { replicaClientId } from '../data/replica-sync';
import type { EventHub } from '../events';
import type { Clock, Logger } from '../ports';
import { registerServerPresence } from '../session/server-presence';
import type { ActiveSession } from '../session/session-service';
import { createSyncEngine, type SyncEngineState, type SyncProgress, type Timer } from './sync-engine';
import { imageFilesOf } from './image-download';
import { contractServerTransport } from './transport';

// The sync of one signed-in session: the engine (outbox drain, cursor pull, backoff, 401 pause)
// with the real transport and timers, the status the UI shows, and the events that keep open
// screens current. Syncs on start, soon after a local edit, periodically, and on reconnect.

export interface SyncServiceOptions {
  session: ActiveSession;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  pageSize?: number;
  /** How often to sync while idle. */
  intervalMs?: number;
  /** How soon after a local edit its push starts. */
  soonMs?: number;
  /** At most this often a running pull tells open screens that data changed. */
  changeNoticeMs?: number;
  /** How often a cheap health check notices a lost or returning server between syncs. */
  probeIntervalMs?: number;
  /** How long a health check waits: a server whose packets are silently dropped is away after this. */
  probeTimeoutMs?: number;
  baseBackoffMs?: number;
  /** Sends the queued files the edits name, before each push (upload-queue.ts). */
  sendFiles?(): Promise<void>;
}

export const signedOutSyncStatus: SyncStatus = {
  online: false,
  phase: 'idle',
  lastSyncAt: null,
  pulled: 0,
  remaining: null,
  firstSync: false,
  queued: 0,
  oldestQueuedAt: null,
  waiting: [],
  problems: [],
  error: null,
};

const realTimer: Timer = {
  set(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createSyncService(options: SyncServiceOptions) {
  const { session, hub, clock, logger } = options;
  const changeNoticeMs = options.changeNoticeMs ?? 500;
  // The top bar says the server went away or came back within 2 s (issue 30): a check every half
  // second (a refused connection answers at once), away after 1.5 s of silence. A health check is
  // a few hundred bytes even on a poor link.
  const probeIntervalMs = options.probeIntervalMs ?? 500;
  const probeTimeoutMs = options.probeTimeoutMs ?? 1_500;
  const { features } = session;
  const outbox = createOutbox(session.replica, { clock, features });
  /** What open screens are told changed when the outbox changes: every entity edits show on. */
  const editedEntities = overlayEntities(features);

  let stopped = false;
  let lastNotice = 0;
  let changedSinceNotice = false;
  let status: SyncStatus = { ...signedOutSyncStatus, online: true, lastSyncAt: session.meta.lastSyncAt() };

  /** The edit as its feature describes it; null for one this build cannot read. */
  function viewOf(problem: Pick<OutboxProblem, 'name' | 'args'>): MutationView | null {
    if (!isMutationName(problem.name)) return null;
    const args = mutations[problem.name].args.safeParse(problem.args);
    return args.success ? (features.mutations[problem.name] as unknown as ClientMutation<MutationName>).view(args.data) : null;
  }

  /** The names the replica knows for the ids the problem's fields hold, mine and theirs, by field group. */
  function namesOfValues(overlay: OverlayEntity, sides: Record<string, unknown>[]): Record<string, Record<string, string>> {
    const names: Record<string, Record<string, string>> = {};
    for (const side of sides) {
      for (const [field, value] of Object.entries(side)) {
        const name = typeof value === 'string' ? overlay.valueName?.(session.replica.db, session.user.id, field, value) : null;
        if (name) names[field] = { ...names[field], [value as string]: name };
      }
    }
    return names;
  }

  /**
   * The fields a problem shows: only those where the edit differs from the server's row (a form
   * save sends every value; those it left as they were are no part of the problem). A refused
   * edit of a row the server does not have (a refused draft) shows the fields its refusal names.
   */
  function differing(changes: Record<string, unknown>, server: Record<string, unknown> | null, error: OutboxProblem['error']): Record<string, unknown> {
    if (server) return Object.fromEntries(Object.entries(changes).filter(([field, value]) => !isDeepStrictEqual(value ?? null, server[field] ?? null)));
    const named = new Set((error?.issues ?? []).map((issue) => issueFieldGroup(issue.path)));
    return Object.fromEntries(Object.entries(changes).filter(([field]) => named.has(field)));
  }

  /** What the user needs to settle a problem: the edit's fields, and the server's values of them. */
  function problemView(problem: OutboxProblem): SyncProblem {
    const view = viewOf(problem);
    const found = view && overlayOf(features, view.row);
    const row = view && splitRowKey(view.row);
    const current = row && problem.current.find((change) => change.entity === row.entity && change.op === 'upsert' && 'id' in change.row && change.row.id === row.id);
    const theirFields = found && current?.op === 'upsert' ? found.overlay.fields(current.row) : null;
    // A refused edit is set against the row as the server last sent it (none for a refused draft).
    const base = found && problem.state === 'rejected' ? found.overlay.base(session.replica.db, found.id) : null;
    const changes = differing(view?.changes ?? {}, theirFields ?? (found && base ? found.overlay.fields(base) : null), problem.error);
    const theirs = theirFields ? Object.fromEntries(Object.keys(changes).map((field) => [field, theirFields[field] ?? null])) : null;
    // A rejected draft is gone from the replica: its own name names it.
    const subject = found ? (found.overlay.name(session.replica.db, found.id) ?? view.name ?? null) : null;
    const fieldNames = found?.overlay.fieldNames?.(session.replica.db, found.id, session.user.id) ?? {};
    const valueNames = found ? namesOfValues(found.overlay, [changes, theirs ?? {}]) : {};
    const conflicting = problem.state === 'conflict' ? (problem.error?.issues ?? []).map((issue) => issue.path).filter((path) => path in changes) : [];
    const entity = (row && mutableEntities.find((kind) => kind === row.entity)) ?? null;
    return { id: problem.id, name: problem.name, state: problem.state, createdAt: problem.createdAt, entity, rowId: row?.id ?? null, subject, changes, fieldNames, valueNames, error: problem.error, theirs, conflicting };
  }

  /**
   * A waiting edit by its kind and what it is about: the row's name (a deleted one's as last
   * synced), after its contract's for a task or a plan ("Steel supply · 2nd instalment").
   */
  function waitingView(change: { id: string; name: string; args: unknown; createdAt: string }): WaitingChange {
    const view = viewOf({ name: change.name, args: change.args });
    const found = view && overlayOf(features, view.row);
    if (!found) return { id: change.id, name: change.name, createdAt: change.createdAt, subject: view?.name ?? null };
    const db = session.replica.db;
    const base = found.overlay.base(db, found.id) as (Record<string, unknown> & { name?: unknown; contractId?: unknown }) | null;
    const own = found.overlay.name(db, found.id) ?? view.name ?? (typeof base?.name === 'string' ? base.name : null);
    const contractId = splitRowKey(view.row).entity !== 'contract' && typeof base?.contractId === 'string' ? base.contractId : null;
    const contract = contractId ? (overlayOf(features, `contract:${contractId}`)?.overlay.name(db, contractId) ?? null) : null;
    const subject = contract && own ? `${contract} · ${own}` : (own ?? contract);
    return { id: change.id, name: change.name, createdAt: change.createdAt, subject };
  }

  function queueStatus() {
    const queue = outbox.status();
    return {
      queued: queue.queued,
      oldestQueuedAt: queue.oldestQueuedAt,
      waiting: queue.queued === 0 ? [] : outbox.waiting(waitingListed).map(waitingView),
      problems: queue.problems.map(problemView),
    };
  }

  function publish(next: Partial<SyncStatus>) {
    status = { ...status, ...queueStatus(), ...next };
    hub.emit('sync.statusChanged', status);
  }

  function dataChanged() {
    hub.emit('data.changed', { entities: editedEntities });
    lastNotice = clock.now().getTime();
    changedSinceNotice = false;
  }

  function onProgress(progress: SyncProgress) {
    switch (progress.kind) {
      case 'pushing':
        publish({ phase: 'pushing', error: null });
        return;
      case 'pushed':
        // Settled edits change what the ledger shows (a rejection reverts one).
        if (progress.settled > 0) dataChanged();
        if (progress.changed.length > 0) hub.emit('data.changed', { entities: [...new Set<DataEntity>([...editedEntities, ...progress.changed])] });
        publish({ online: true });
        return;
      case 'pulling':
        publish({ phase: 'pulling', pulled: 0, remaining: null, firstSync: progress.firstSync, error: null });
        return;
      case 'resync':
        publish({ phase: 'pulling', pulled: 0, remaining: null, firstSync: true });
        return;
      case 'pulled': {
        changedSinceNotice ||= progress.changes > 0;
        // The first page makes the ledger usable at once; later ones are announced at a bounded rate.
        const now = clock.now().getTime();
        if (changedSinceNotice && (lastNotice === 0 || now - lastNotice >= changeNoticeMs || !progress.hasMore)) dataChanged();
        publish({ online: true, pulled: status.pulled + progress.changes, remaining: progress.remaining, lastSyncAt: session.meta.lastSyncAt() });
      }
    }
  }

  const engine = createSyncEngine({
    outbox,
    meta: session.meta,
    writer: session.writer,
    transport: contractServerTransport(session, options.pageSize, undefined, imageFilesOf(session.replica.path)),
    clientId: replicaClientId(session.replica),
    userId: session.user.id,
    refreshAuth: () => session.refreshTokens(),
    clock,
    timer: realTimer,
    logger,
    soonMs: options.soonMs,
    intervalMs: options.intervalMs,
    baseBackoffMs: options.baseBackoffMs,
    onProgress,
    beforePush: options.sendFiles,
    onRound: settled,
  });

  function settled(state: SyncEngineState): void {
    if (changedSinceNotice) dataChanged();
    // Once per round, not per page: the reminder scheduler re-reads its tasks on this.
    const roundChanges = session.writer.takeRoundChanges();
    if (roundChanges.length > 0) hub.emit('data.changed', { entities: roundChanges });
    const error = state.error;
    if (state.phase === 'paused') publish({ phase: 'paused', error });
    else if (!error) publish({ phase: 'idle', online: true, remaining: 0, firstSync: false, error: null });
    else {
      const offline = error.code === 'server_unreachable';
      publish({ phase: offline ? 'offline' : 'error', online: !offline, error });
    }
  }

  async function syncNow(): Promise<SyncStatus> {
    if (!stopped) await engine.syncNow();
    return status;
  }

  // Between syncs, a health check notices a lost server within seconds, and a server that is
  // back triggers a sync at once (sync on reconnect).
  let probing = false;
  async function probe() {
    if (stopped || probing || engine.state().phase === 'syncing' || engine.state().phase === 'paused') return;
    probing = true;
    try {
      await session.client.call('health', { timeoutMs: probeTimeoutMs });
      if (!status.online) void syncNow();
    } catch (cause) {
      // Stopped while the check was out: the replica may be closed already.
      if (stopped) return;
      const error = toAppError(cause);
      if (error.code === 'server_unreachable' && status.online) publish({ online: false, phase: 'offline', error });
    } finally {
      probing = false;
    }
  }
  const probeTimer = setInterval(() => void probe(), probeIntervalMs);
  probeTimer.unref?.();
  // Server-only calls are refused at once while the server is known away; each refusal asks for a
  // fresh check, so a returning server is noticed at the next try, not the next interval.
  registerServerPresence(session, { away: () => !status.online, recheck: () => void probe() });

  /** After a change of the outbox made here: the UI shows it at once. */
  function locallyChanged() {
    dataChanged();
    publish({});
  }

  /**
   * A local edit whose args are made inside its transaction, so what they write on the way (a
   * draft's provisional number) commits or rolls back with the edit.
   */
  function editWith<N extends MutationName>(name: N, prepare: () => MutationArgs<N>): { mutationId: string } {
    const { id } = session.replica.db.transaction(() => outbox.enqueue(name, prepare()));
    locallyChanged();
    engine.edited();
    return { mutationId: id };
  }

  function settleProblem(id: string, state: 'rejected' | 'conflict', action: () => void): SyncStatus {
    const problem = outbox.status().problems.find((p) => p.id === id && p.state === state);
    if (!problem) throw new AppFailure('not_found', state === 'rejected' ? 'There is no such rejected change.' : 'There is no such conflict to settle.');
    action();
    locallyChanged();
    return status;
  }

  return {
    status: () => status,
    /** Whether a round is under way (pushing or pulling). */
    syncing: () => engine.state().phase === 'syncing',
    syncNow,
    /** A local edit: its optimistic effect and its outbox row in one transaction. */
    edit<N extends MutationName>(name: N, args: MutationArgs<N>): { mutationId: string } {
      return editWith(name, () => args);
    },
    editWith,
    refused: (id: string) => outbox.refused(id),
    /** Sends a refused edit again, corrected by the user (outbox.resend). */
    resend<N extends MutationName>(id: string, name: N, args: MutationArgs<N>): { mutationId: string } {
      const resent = outbox.resend(id, name, args);
      locallyChanged();
      engine.edited();
      return { mutationId: resent.id };
    },
    dismiss: (id: string) => settleProblem(id, 'rejected', () => outbox.dismiss(id)),
    keepTheirs: (id: string) =>
      settleProblem(id, 'conflict', () => {
        outbox.dismiss(id);
        // The server's version arrives with the next pull.
        engine.edited();
      }),
    applyMineAgain: (id: string) =>
      settleProblem(id, 'conflict', () => {
        outbox.applyMineAgain(id);
        engine.edited();
      }),
    /** Stops the timers; a round under way finishes. */
    async stop() {
      stopped = true;
      clearInterval(probeTimer);
      await engine.stop();
    },
  };
}
export type SyncService = ReturnType<typeof createSyncService>;
