import type { MutationOutcome, SyncChange } from '../../../src-shared/api/sync';
import type { User } from '../../../src-shared/domain/user';
import type { EventPayload } from '../../../src-shared/ipc/channels';
import type { MutationArgs, MutationName, RowKey } from '../../../src-shared/sync/mutations';
import type { OpenReplica, ReplicaDb } from './replica';

// What a feature plugs into the shared replica machinery (outbox, pull writer, sync status),
// which knows no feature by name: the client side of its mutations, the rows its edits show on,
// and the writer of the entities it pulls. src-main/core/features.ts composes them; the mapped
// types make a mutation kind or a pulled entity without its feature's side a type error.

/** A connection or a transaction on the replica. */
export type ReplicaTx = Pick<ReplicaDb, 'select' | 'selectDistinct' | 'insert' | 'update' | 'delete'>;

/** The entities an open screen can be told changed. */
export type DataEntity = EventPayload<'data.changed'>['entities'][number];
export type SyncEntity = SyncChange['entity'];
export type ChangeOf<E extends SyncEntity> = Extract<SyncChange, { entity: E }>;

/** A synced row as the outbox needs it: the version edits of it are based on. */
export interface VersionedRow {
  version: number;
}

/** The rows a replay works on: base rows, changed in place by the mutations re-applied so far. */
export interface WorkingRows {
  get(key: RowKey): unknown;
  put(key: RowKey, row: unknown): void;
}

/** What a replay knows besides the args. */
export interface LocalContext {
  /** When the edit was made. */
  at: string;
  /** Whose replica this is: the responsible person of a row made here. */
  owner: User | null;
  /** What the server decided, once it applied the mutation (kept until the pull brings the row). */
  outcome?: MutationOutcome;
  /** The replica, for what a row shows before the server sends it (e.g. catalogue names). */
  db: ReplicaTx;
}

/** What a problem (a rejected or conflicting edit) shows the user. */
export interface MutationView {
  /** The row the edit is about. */
  row: RowKey;
  /** The fields it changes, with the values it gives them. */
  changes: Record<string, unknown>;
  /** Its own name for the row, for a row made by the edit that is gone from the replica. */
  name?: string;
}

/** What a check knows besides the args. */
export interface CheckContext {
  db: ReplicaTx;
  /** Whose replica this is. */
  owner: User | null;
}

/**
 * The client side of a mutation of src-shared/sync/mutations.ts. On every enqueue the outbox runs
 * the shared schema, refuses a touched row the replica lacks as the server does, and then runs
 * `check`, so no kind can be queued without them.
 */
export interface ClientMutation<N extends MutationName> {
  /**
   * Refuses at once (an AppFailure) what the server would refuse by the shared rules; the
   * context's `owner` is the replica's user (what they may do), null before the first sign-in.
   */
  check(args: MutationArgs<N>, context: CheckContext): void;
  /** Its optimistic effect on the local rows. */
  apply(args: MutationArgs<N>, rows: WorkingRows, context: LocalContext): void;
  /** After the server applied it: keeps what the answer says (e.g. a replaced number) and names what changed. */
  applied?(db: ReplicaTx, args: MutationArgs<N>, outcome: MutationOutcome, at: string): readonly DataEntity[];
  view(args: MutationArgs<N>): MutationView;
  /**
   * Its effect stays shown when the server refuses it, until the user re-sends or discards it (a
   * refused draft stays the user's); the rows it shows wait for it meanwhile. Without, a refusal reverts it.
   */
  keptWhenRefused?: true;
}
export type ClientMutations<N extends MutationName> = { [K in N]: ClientMutation<K> };

/** An entity whose rows edits show on before the server confirms them: its base row and its optimistic one. */
export interface OverlayEntity {
  /** The synced row, or null when the replica has none. */
  base(db: ReplicaTx, id: string): VersionedRow | null;
  /** The synced row's version alone (null: none), where reading the whole row costs more: a drain's pull checks thousands. */
  baseVersion?(db: ReplicaTx, id: string): number | null;
  /** Sets (null: removes) the optimistic row that screens read instead of the base one. */
  setLocal(db: ReplicaTx, id: string, row: unknown): void;
  /** The name the user knows the row by (local row first); null when the replica has neither row. */
  name(db: ReplicaTx, id: string): string | null;
  /** The fields of a row the server sent by field group, to show beside the user's edit of them. */
  fields(row: unknown): Record<string, unknown>;
  /**
   * Names of the row's keyed field groups the replica knows (a sheet column's for "value:<column
   * id>", a form field's of the contract's template for "form:<field id>"); `userId` is whose catalogue.
   */
  fieldNames?(db: ReplicaTx, id: string, userId: string): Record<string, string>;
  /** The name the replica knows for an id one of the row's field groups holds (a contract type's, a performance's); null when it knows none. */
  valueName?(db: ReplicaTx, userId: string, field: string, value: string): string | null;
}

/** The writer of one pulled page's changes of an entity, inside the page's transaction. */
export interface PageWriter<E extends SyncEntity> {
  /** Writes one change; returns the entities to announce once the round ends. */
  write(change: ChangeOf<E>): readonly DataEntity[];
  /** The page's end: writes what `write` batched. */
  end?(): void;
}

/** A feature's writer of one pulled entity, made once per open replica; every call is in a transaction. */
export interface PullWriter<E extends SyncEntity> {
  /** A page starts (a failed page's batch is dropped with its transaction). */
  page(db: ReplicaTx): PageWriter<E>;
  /**
   * A pull from nothing (a first sync or a rebuild) writes its first page, in that page's
   * transaction: a writer whose tables are empty may set their upkeep aside until `finishPull`.
   */
  pullFromStart?(db: ReplicaTx): void;
  /**
   * A ready replica image replaced the pulled rows, its derived state whole (replica-sync.ts): what
   * `pullFromStart` set aside waits for no `finishPull`. The indexes and triggers come back by themselves.
   */
  imageTakenIn?(db: ReplicaTx): void;
  /** A full resync starts (must_resync): the rows stay usable until `finishPull` knows which are gone. */
  startResync?(db: ReplicaTx): readonly DataEntity[];
  /** A pull reached the end: removes what a resync did not bring; returns the keys removed. */
  finishPull?(db: ReplicaTx): RowKey[];
  /** A row of another entity left the replica (deleted, or no longer visible). */
  rowGone?(db: ReplicaTx, key: RowKey): readonly DataEntity[];
}

export interface ReplicaFeatures {
  mutations: ClientMutations<MutationName>;
  pulled: { [E in SyncEntity]: (replica: OpenReplica) => PullWriter<E> };
  /** The entities edits show on before sync; their changes are announced as they come. */
  overlays: Partial<Record<SyncEntity & DataEntity, OverlayEntity>>;
}

/** The entity and id of a row key ("contract:0192…"). */
export function splitRowKey(key: string): { entity: string; id: string } {
  const at = key.indexOf(':');
  return { entity: key.slice(0, at), id: key.slice(at + 1) };
}

export function overlayOf(features: ReplicaFeatures, key: string): { overlay: OverlayEntity; id: string } | null {
  const { entity, id } = splitRowKey(key);
  const overlay = Object.prototype.hasOwnProperty.call(features.overlays, entity) ? features.overlays[entity as keyof ReplicaFeatures['overlays']] : undefined;
  return overlay ? { overlay, id } : null;
}

/** The entities whose rows edits show on: what a change of the outbox changes for open screens. */
export const overlayEntities = (features: ReplicaFeatures) => Object.keys(features.overlays) as DataEntity[];

/**
 * A drizzle query built once per database rather than on every call: drizzle assembles a query's
 * SQL anew each time it runs, which costs more than the read itself on a small edit's hot path.
 * A transaction shares its database's session, so the query built for one serves both.
 */
export function preparedPerDatabase<Q>(build: (db: ReplicaTx) => Q): (db: ReplicaTx) => Q {
  const built = new WeakMap<object, Q>();
  return (db) => {
    const session = (db as unknown as { session: object }).session;
    let query = built.get(session);
    if (query === undefined) {
      query = build(db);
      built.set(session, query);
    }
    return query;
  };
}
