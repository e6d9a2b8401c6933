import { once } from 'node:events';
import zlib from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import { cursorPosition, preparedFeedPages, syncProtocolVersion, syncSchemaVersion, type SyncFeedStreamQuery } from '../../src-shared/api/sync';
import { packPullResponse } from '../../src-shared/sync/feed-codec';
import type { ServerDb } from '../db/database';
import { users } from '../db/schema';
import type { Viewer } from '../contracts/repository';
import { storeImage } from './images';
import { replicaVersionOf, startImageThread } from './image-thread';
import { cursorLevel, feedEnd, pullChanges, servable, type SyncHistoryOptions } from './pull';
import { syncImages, syncSnapshots } from './schema';

// Prepared first syncs (architecture, sync rule 10). A first sync through the feed costs the
// server about as much CPU as the client's writing of it (reading every row from PostgreSQL,
// packing and compressing about 90 MB of JSON for 50,000 contracts), and both run at once on the
// user's machine's counterpart. So the server writes each user's first sync ahead, in the
// background: the pages the stream would send from cursor 0, compressed once. A new replica gets
// them as they are and then pulls on from their last cursor like any replica, through the live
// feed. That cursor is an ordinary one, so everything a replica caught up at the same moment would
// be told since (edits, tombstones, lost access) reaches it the same way; the snapshot is served
// only while that cursor would still be accepted (no tombstone above its level pruned, no change
// of the user's rights since), and rebuilt when it would not be, or has grown old.

/**
 * Brotli quality 7 of a prepared first sync, written once in the background: 50,000 contracts
 * (300,406 changes) in 11.9 MB and 15.6 CPU-seconds, against 13.1 MB and 10.9 s at the live
 * stream's 5, and 11.5 MB and 26.4 s at 9.
 */
const snapshotQuality = 7;
/** A 16 MB window: a page repeats the names, forms and shapes of pages far before it. */
const snapshotWindowBits = 24;

/** A user a snapshot is written for: what the feed sees by, and the organisation their scenes belong to. */
export type SnapshotViewer = Viewer & { organisationId: string };

export interface SnapshotOptions {
  now: () => Date;
  history: SyncHistoryOptions;
  /** What a pull from cursor 0 needs first (the viewer's system ledger scenes). */
  beforeFirstPull(viewer: SnapshotViewer): Promise<void>;
  /**
   * Also builds the user's replica image from the same pages (images.ts), with the desktop
   * migrations of `migrationsDir` (default: this build's).
   */
  images?: { migrationsDir?: string };
}

/** What a snapshot's build wrote: its changes and bytes, and the image's when one was built. */
export interface BuiltSnapshot {
  changes: number;
  bytes: number;
  image: { bytes: number; rawBytes: number; buildMs: number } | null;
}

/**
 * Writes the viewer's prepared first sync: the feed's pages from cursor 0, in the desktop's page
 * shape, as one brotli body, and with `options.images` their replica image built from the same pages.
 */
export async function buildSnapshot(db: ServerDb, viewer: SnapshotViewer, options: SnapshotOptions, stopped: () => boolean = () => false): Promise<BuiltSnapshot> {
  await options.beforeFirstPull(viewer);
  const imageStart = performance.now();
  const image = options.images ? startImageThread(options.images.migrationsDir) : null;
  try {
    return await writeSnapshot(db, viewer, options, image, imageStart, stopped);
  } finally {
    await image?.stop();
  }
}

/** A build given up because the server is stopping: a large user's takes minutes, which its close does not wait out. */
class BuildStopped extends Error {}

async function writeSnapshot(db: ServerDb, viewer: SnapshotViewer, options: SnapshotOptions, image: ReturnType<typeof startImageThread> | null, imageStart: number, stopped: () => boolean): Promise<BuiltSnapshot> {
  const body = zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: snapshotQuality, [zlib.constants.BROTLI_PARAM_LGWIN]: snapshotWindowBits },
  });
  const chunks: Buffer[] = [];
  body.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(body, 'end');
  const query = { limit: preparedFeedPages.limit, maxBytes: preparedFeedPages.maxBytes, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };
  let changes = 0;
  let cursor = '0';
  for (let limit: number = preparedFeedPages.firstLimit; ; limit = preparedFeedPages.limit) {
    if (stopped()) throw new BuildStopped();
    const page = await pullChanges(db, viewer, { ...query, cursor, limit }, options.now(), options.history);
    changes += page.changes.length;
    cursor = page.cursor;
    const line = JSON.stringify(packPullResponse(page));
    image?.page(line);
    // The last page says there is more: its stream ends there, and the replica asks the live feed
    // from its cursor for what was written since.
    const streamed = page.hasMore ? line : JSON.stringify(packPullResponse({ ...page, hasMore: true, remaining: 1 }));
    if (!body.write(`${streamed}\n`)) await once(body, 'drain');
    if (!page.hasMore) break;
  }
  body.end();
  await ended;
  const row = {
    protocolVersion: syncProtocolVersion,
    schemaVersion: syncSchemaVersion,
    level: cursorLevel(cursor),
    position: cursorPosition(cursor),
    body: Buffer.concat(chunks),
    builtAt: options.now(),
  };
  await db
    .insert(syncSnapshots)
    .values({ userId: viewer.id, ...row })
    .onConflictDoUpdate({ target: syncSnapshots.userId, set: row });
  if (!image) return { changes, bytes: row.body.length, image: null };
  if (stopped()) throw new BuildStopped();
  const built = await image.finish(viewer.id, row.builtAt.toISOString());
  const buildMs = Math.round(performance.now() - imageStart);
  await storeImage(db, viewer.id, { ...built, level: row.level, position: row.position, buildMs, builtAt: row.builtAt });
  return { changes, bytes: row.body.length, image: { bytes: built.body.byteLength, rawBytes: built.rawBytes, buildMs } };
}

/** The request's bounds hold the prepared pages (a client asking for smaller pages gets the live feed). */
function holdsPreparedPages(query: SyncFeedStreamQuery): boolean {
  return query.limit >= preparedFeedPages.limit && query.maxBytes >= preparedFeedPages.maxBytes && (query.firstLimit ?? query.limit) >= preparedFeedPages.firstLimit;
}

/**
 * The viewer's prepared first sync, brotli-compressed, when it answers this request: a pull from
 * cursor 0 of this protocol and schema whose bounds hold its pages, while its last cursor would
 * still be accepted. Otherwise null: the live feed answers.
 */
export async function preparedFirstSync(db: ServerDb, viewer: Viewer, query: SyncFeedStreamQuery): Promise<Buffer | null> {
  if (query.cursor !== '0' || !holdsPreparedPages(query)) return null;
  const [row] = await db
    .select({ body: syncSnapshots.body })
    .from(syncSnapshots)
    .innerJoin(users, eq(users.id, syncSnapshots.userId))
    .where(and(eq(syncSnapshots.userId, viewer.id), current()))
    .limit(1);
  return row?.body ?? null;
}

/** A snapshot of this protocol and schema whose last cursor a pull would still accept (see pullChanges). */
const current = () => servable(syncSnapshots);

export interface SnapshotUpkeepOptions extends SnapshotOptions {
  warn(message: string): void;
  /** How often the server looks for snapshots to write (default 10 minutes). */
  intervalMs?: number;
  /** A snapshot older than this is written again if the feed moved on, so a new replica's live tail stays short (default 6 hours). */
  maxAgeMs?: number;
}

/**
 * Users without a current snapshot, then those whose snapshot is older than `maxAgeMs` while the
 * feed has moved on since it was written (a quiet server writes nothing again).
 */
async function usersToPrepare(db: ServerDb, now: Date, maxAgeMs: number, images: SnapshotOptions['images']): Promise<SnapshotViewer[]> {
  const oldest = new Date(now.getTime() - maxAgeMs);
  // With images, a user whose image is missing or of another replica schema (the desktop's migrations changed) is due too.
  const imageDue = images ? sql`not exists (select 1 from ${syncImages} where ${syncImages.userId} = ${users.id} and ${syncImages.replicaVersion} = ${replicaVersionOf(images.migrationsDir)})` : sql`false`;
  const candidates = await db
    .select({
      id: users.id,
      role: users.role,
      departmentId: users.departmentId,
      organisationId: users.organisationId,
      current: sql<boolean>`${syncSnapshots.userId} is not null and coalesce(${current()}, false) and not ${imageDue}`,
      position: syncSnapshots.position,
    })
    .from(users)
    .leftJoin(syncSnapshots, eq(syncSnapshots.userId, users.id))
    .where(sql`${syncSnapshots.userId} is null or not coalesce(${current()}, false) or ${syncSnapshots.builtAt} < ${oldest.toISOString()}::timestamptz or ${imageDue}`)
    .orderBy(sql`${syncSnapshots.userId} is not null`, users.username);
  // Read once a round, and only when a current snapshot has grown old.
  const end = candidates.some((candidate) => candidate.current) ? await feedEnd(db) : 0n;
  return candidates.filter(({ current: isCurrent, position }) => !isCurrent || position === null || position < end).map(({ current: _current, position: _position, ...viewer }) => viewer);
}

/** One round: writes each snapshot due, one at a time, until `stopped` (a failure is reported and the round goes on). */
export async function prepareSnapshots(db: ServerDb, options: SnapshotUpkeepOptions, stopped = () => false): Promise<number> {
  let written = 0;
  const due = await usersToPrepare(db, options.now(), options.maxAgeMs ?? defaultMaxAgeMs, options.images);
  const failed = (viewer: SnapshotViewer, error: unknown) =>
    options.warn(`sync snapshot of user ${viewer.id} failed: ${error instanceof Error ? error.message : String(error)}`);
  // What a first pull writes (a user's system scenes) is written for all of them first: otherwise
  // the round's own writes would leave the feed moved on past the snapshots written before them.
  const ready: SnapshotViewer[] = [];
  for (const viewer of due) await options.beforeFirstPull(viewer).then(() => ready.push(viewer), (error: unknown) => failed(viewer, error));
  for (const viewer of ready) {
    if (stopped()) break;
    try {
      await buildSnapshot(db, viewer, options, stopped);
      written += 1;
    } catch (error) {
      if (error instanceof BuildStopped) break;
      failed(viewer, error);
    }
  }
  return written;
}

const defaultMaxAgeMs = 6 * 60 * 60 * 1000;

/** Writes the snapshots due now and then every `intervalMs`; the returned function stops and waits for a round under way. */
export function startSnapshotUpkeep(db: ServerDb, options: SnapshotUpkeepOptions): () => Promise<void> {
  let stopped = false;
  const round = () =>
    stopped
      ? Promise.resolve()
      : prepareSnapshots(db, options, () => stopped).then(
          () => undefined,
          (error: unknown) => options.warn(`sync snapshots: ${error instanceof Error ? error.message : String(error)}`),
        );
  let running = round();
  const timer = setInterval(() => {
    running = running.then(round);
  }, options.intervalMs ?? 10 * 60 * 1000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
