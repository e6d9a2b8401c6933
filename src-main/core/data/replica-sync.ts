import { eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { SyncChange } from '../../../src-shared/api/sync';
import { rowKey, type RowKey } from '../../../src-shared/sync/mutations';
import { deferTriggers, restoreIndexes, restoreIndexesOneByOne, restoreTriggers } from './deferred-indexes';
import { rebuildPulledRows } from './outbox';
import { attachImage, checkAttachedImage, detachImage, imageTables, imageTablesUpkeep } from './replica-image';
import type { OpenReplica } from './replica';
import type { DataEntity, PageWriter, PullWriter, ReplicaFeatures, ReplicaTx, SyncEntity } from './replica-features';
import { outboxTouches, replicaMeta } from './schema';

// The sync side of the replica: its cursor and client id, and the writer that applies pulled
// pages. Only sync writes base state; each entity's rows are written by its feature's writer.

export interface ReplicaWriter {
  /** Applies one pulled page and advances the cursor in a single transaction. */
  applyPulledChanges(changes: readonly SyncChange[], cursor: string, syncedAt: string): void;
  /**
   * The server no longer keeps the changes since our cursor (must_resync): pull everything again
   * from the start, keeping the base rows (screens stay usable) and the outbox.
   */
  startResync(): void;
  /** A pull reached the end: a resync that ran removes the base rows it did not bring. */
  finishPull(): void;
  /** The entities pulls changed that are announced once per round (not as pages come), then forgets them. */
  takeRoundChanges(): DataEntity[];
  /**
   * Whether a ready replica image may replace the pulled rows: a first sync into a replica that
   * held none (the full-text index holds none of its rows; a resync's replica keeps the feed).
   */
  imageWelcome(): boolean;
  /**
   * Takes a ready replica image (replica-image.ts) in as the pulled rows, in one transaction: the
   * first sync is then caught up to the image's cursor, and goes on through the feed from there.
   * An image of another schema or user is refused with nothing changed.
   */
  takeInImage(path: string, userId: string, syncedAt: string): void;
}

export interface MetaReader {
  cursor(): string;
  lastSyncAt(): string | null;
  /** A pull that started from nothing (a first sync or a rebuild) has not reached the end yet. */
  firstSyncOpen(): boolean;
  /** The replica's schema version (its count of client migrations): what a replica image must be built at. */
  replicaVersion(): number;
}

const clientIdKey = 'client_id';

/** This replica's sync client id (the server orders and deduplicates its mutations by it), made once. */
export function replicaClientId({ db }: OpenReplica): string {
  const stored = db.select({ value: replicaMeta.value }).from(replicaMeta).where(eq(replicaMeta.key, clientIdKey)).get();
  if (stored) return stored.value;
  const id = uuidv7();
  db.insert(replicaMeta).values({ key: clientIdKey, value: id }).run();
  return id;
}

const cursorKey = 'pull_cursor';
const lastSyncKey = 'last_sync_at';
// Set by the first page of a pull from '0' and removed when a pull reaches the end: the cursor
// alone cannot tell, as a mid-way cursor names the server's starting level, not '0'.
const firstSyncOpenKey = 'first_sync_open';
/** While set, the full-text index triggers stand aside (client migration 0030); the search feature indexes what they skipped. */
export const searchIndexDeferredKey = 'search_index_deferred';

export function metaReader({ db, sqlite }: OpenReplica): MetaReader {
  const read = db
    .select({ value: replicaMeta.value })
    .from(replicaMeta)
    .where(eq(replicaMeta.key, sql.placeholder('key')))
    .prepare();
  return {
    cursor: () => read.get({ key: cursorKey })?.value ?? '0',
    lastSyncAt: () => read.get({ key: lastSyncKey })?.value ?? null,
    firstSyncOpen: () => read.get({ key: firstSyncOpenKey }) !== undefined,
    replicaVersion: () => sqlite.pragma('user_version', { simple: true }) as number,
  };
}

/** Pulling from '0' is a first sync, and so is resuming one that stopped mid-way (after a restart too). */
export function firstSyncPending(meta: MetaReader): boolean {
  return meta.cursor() === '0' || meta.firstSyncOpen();
}

/** The id a change is about, for an entity whose rows edits show on. */
const changedId = (change: SyncChange): string | null => (change.op === 'delete' ? change.id : 'id' in change.row ? change.row.id : null);

/** The rows a page changed that edits show on, named only when asked: with no edit under way, never. */
function* shownRows(changes: readonly SyncChange[], features: ReplicaFeatures): Generator<RowKey> {
  for (const change of changes) {
    const id = change.entity in features.overlays ? changedId(change) : null;
    if (id !== null) yield rowKey(change.entity, id);
  }
}

/**
 * A first sync into an empty replica writes through a rollback journal, synced in full, instead of
 * the write-ahead log: nearly every page it writes is new, which a rollback journal need not copy,
 * where the log takes each page and then gives it back to the database. At 50,000 contracts the
 * core's first sync took 11.6–11.9 s this way against 12.4–13.5 s through the log (interleaved
 * runs), and 0.6 s less CPU. The replica goes back to
 * the log when the pull ends, or when it is opened again after a stop mid-way (openReplica). The
 * mode is only a speed: a connection that cannot change it now (a read still under way) keeps the
 * one it has.
 */
function bulkLoadJournal({ sqlite }: OpenReplica, bulk: boolean): void {
  try {
    sqlite.pragma(bulk ? 'journal_mode = TRUNCATE' : 'journal_mode = WAL');
    sqlite.pragma(bulk ? 'synchronous = FULL' : 'synchronous = NORMAL');
  } catch {
    // Kept as it is (see above).
  }
}

export function replicaWriter(replica: OpenReplica, features: ReplicaFeatures): ReplicaWriter {
  const { db } = replica;
  const meta = metaReader(replica);
  const writers = Object.fromEntries(Object.entries(features.pulled).map(([entity, make]) => [entity, make(replica)])) as { [E in SyncEntity]: PullWriter<E> };
  const all = Object.values(writers) as PullWriter<SyncEntity>[];
  let roundChanges = new Set<DataEntity>();
  const setMeta = (tx: Pick<typeof db, 'insert'>, key: string, value: string) =>
    tx.insert(replicaMeta).values({ key, value }).onConflictDoUpdate({ target: replicaMeta.key, set: { value } }).run();

  /** Rows left the replica: every feature hears of it (a contract's tasks leave with it). */
  function gone(tx: ReplicaTx, keys: readonly RowKey[], changed: Set<DataEntity>) {
    for (const key of keys) for (const writer of all) for (const entity of writer.rowGone?.(tx, key) ?? []) changed.add(entity);
  }

  const hasContracts = replica.sqlite.prepare<[], number>('select exists (select 1 from contracts)').pluck();
  const searchDeferred = replica.sqlite.prepare<[string], number>('select exists (select 1 from replica_meta where key = ?)').pluck();
  // The optimistic rows the pull rewrote while the index triggers stood aside (a draft it
  // confirmed, an edit made meanwhile) left their index entries behind: gone rows' entries stay,
  // changed rows' entries are stale, and the next edit of such a row found its entry taken. They
  // are the few rows the user changed: their entries go, and the index builder makes them afresh.
  const forgetOptimisticSearchRows = () =>
    replica.sqlite.exec(`
      delete from contract_search where rowid in (select id from search_rows where source = 'local');
      delete from contract_search_bigrams where rowid in (select id from search_rows where source = 'local');
      delete from search_rows where source = 'local';`);

  return {
    applyPulledChanges(changes, cursor, syncedAt) {
      const fromStart = meta.cursor() === '0';
      const intoEmpty = fromStart && !replica.sqlite.prepare('select exists (select 1 from contracts)').pluck().get();
      if (intoEmpty) bulkLoadJournal(replica, true);
      db.transaction((tx) => {
        // Into an empty replica the full-text index is built once the pull ends, not row by row.
        if (intoEmpty) {
          setMeta(tx, searchIndexDeferredKey, '1');
          deferTriggers(replica.sqlite, searchIndexDeferredKey);
        }
        if (fromStart) for (const writer of all) writer.pullFromStart?.(tx);
        const changed = new Set<DataEntity>();
        const pages = new Map<SyncEntity, PageWriter<SyncEntity>>();
        const pageOf = (entity: SyncEntity) => pages.get(entity) ?? pages.set(entity, (writers[entity] as PullWriter<SyncEntity>).page(tx)).get(entity)!;
        for (const change of changes) {
          for (const entity of pageOf(change.entity).write(change)) changed.add(entity);
          if (change.op === 'delete') gone(tx, [rowKey(change.entity, change.id)], changed);
        }
        for (const page of pages.values()) page.end?.();
        // A pull never erases an unconfirmed edit: it is re-applied on the new base (rule 4).
        rebuildPulledRows(tx, features, shownRows(changes, features));
        if (fromStart) setMeta(tx, firstSyncOpenKey, '1');
        setMeta(tx, cursorKey, cursor);
        setMeta(tx, lastSyncKey, syncedAt);
        roundChanges = new Set([...roundChanges, ...changed]);
      });
    },
    startResync() {
      const changed = new Set<DataEntity>();
      db.transaction((tx) => {
        for (const writer of all) for (const entity of writer.startResync?.(tx) ?? []) changed.add(entity);
        setMeta(tx, cursorKey, '0');
      });
      roundChanges = new Set([...roundChanges, ...changed]);
    },
    finishPull() {
      const firstSync = meta.firstSyncOpen();
      const changed = new Set<DataEntity>();
      // A first sync's indexes are built before the rest of its end, each committed on its own (a
      // cut between them leaves the others set aside, built at the next end or open).
      if (firstSync) restoreIndexesOneByOne(replica.sqlite);
      db.transaction((tx) => {
        if (searchDeferred.get(searchIndexDeferredKey) === 1) forgetOptimisticSearchRows();
        tx.delete(replicaMeta).where(inArray(replicaMeta.key, [firstSyncOpenKey, searchIndexDeferredKey])).run();
        const removed = all.flatMap((writer) => writer.finishPull?.(tx) ?? []);
        // What the pull set aside and a writer did not bring back itself is back now, with the keys gone.
        restoreTriggers(replica.sqlite);
        restoreIndexes(replica.sqlite);
        if (removed.length === 0) return;
        gone(tx, removed, changed);
        rebuildPulledRows(tx, features, removed);
      });
      roundChanges = new Set([...roundChanges, ...changed]);
      // The planner picks a scene's indexes by statistics: made after a first sync (the tables were
      // empty before), then refreshed by optimize when tables have grown or shrunk much.
      replica.sqlite.exec(firstSync ? 'ANALYZE' : 'PRAGMA optimize');
      if (firstSync) bulkLoadJournal(replica, false);
    },
    imageWelcome: () => firstSyncPending(meta) && (hasContracts.get() === 0 || searchDeferred.get(searchIndexDeferredKey) === 1),
    takeInImage(path, userId, syncedAt) {
      const { sqlite } = replica;
      attachImage(sqlite, path);
      try {
        const cursor = checkAttachedImage(sqlite, userId);
        // Copied without their indexes and triggers (SQLite then copies each table's pages as they
        // are), which come back once the rows are in: the image brought what the triggers keep.
        const upkeep = imageTablesUpkeep(sqlite);
        db.transaction((tx) => {
          for (const { name, type } of upkeep) sqlite.exec(`drop ${type} "${name.replaceAll('"', '""')}"`);
          for (const table of imageTables) sqlite.exec(`delete from main.${table}; insert into main.${table} select * from image.${table};`);
          for (const writer of all) writer.imageTakenIn?.(tx);
          // The full-text index is built from the rows afterwards, as after a first sync (search/index-builder.ts).
          tx.delete(replicaMeta).where(inArray(replicaMeta.key, [firstSyncOpenKey, searchIndexDeferredKey])).run();
          setMeta(tx, cursorKey, cursor);
          setMeta(tx, lastSyncKey, syncedAt);
          for (const { sql: create, type } of upkeep) if (type === 'index') sqlite.exec(create);
          restoreIndexes(sqlite);
          for (const { sql: create, type } of upkeep) if (type === 'trigger') sqlite.exec(create);
          restoreTriggers(sqlite);
          // The user's edits made meanwhile show on the image's rows (rule 4).
          rebuildPulledRows(tx, features, tx.selectDistinct({ key: outboxTouches.rowKey }).from(outboxTouches).all().map(({ key }) => key as RowKey));
        });
      } finally {
        detachImage(sqlite);
      }
      sqlite.exec('ANALYZE');
      bulkLoadJournal(replica, false);
      // Every pulled entity changed (their names are the screens' too).
      roundChanges = new Set([...roundChanges, ...(Object.keys(features.pulled) as DataEntity[])]);
    },
    takeRoundChanges() {
      const taken = [...roundChanges];
      roundChanges = new Set();
      return taken;
    },
  };
}
