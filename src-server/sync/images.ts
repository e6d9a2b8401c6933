import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sha256HexSchema, syncImageBodyPath, syncProtocolVersion, syncSchemaVersion, type SyncImage, type SyncImageQuery } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { users } from '../db/schema';
import type { Viewer } from '../contracts/repository';
import { checkSyncVersions } from './protocol';
import { changesSince, servable } from './pull';
import { syncImages } from './schema';

// A user's first sync as a ready replica image (architecture, "First sync"): built beside the
// prepared pages (snapshots.ts) by the core's builder on a worker thread (image-thread.ts), kept
// compressed in PostgreSQL, and downloaded by byte range, so a cut on a poor link costs only
// what was in flight. The desktop takes it in and pulls on through the feed from its cursor.

/**
 * An image further behind the feed than this many of the user's changes is not offered: its
 * catch-up through the feed would cost the desktop about what the image saves it. The upkeep
 * builds it again (snapshots.ts).
 */
export const maxImageLag = 20_000;

export interface BuiltImage {
  body: Uint8Array;
  sha256: string;
  replicaVersion: number;
  rawBytes: number;
  changes: number;
  cursor: string;
  level: bigint;
  position: bigint;
  buildMs: number;
  builtAt: Date;
}

export async function storeImage(db: ServerDb, userId: string, image: BuiltImage): Promise<void> {
  const values = {
    ...image,
    protocolVersion: syncProtocolVersion,
    schemaVersion: syncSchemaVersion,
    body: Buffer.from(image.body.buffer, image.body.byteOffset, image.body.byteLength),
  };
  await db.insert(syncImages).values({ userId, ...values }).onConflictDoUpdate({ target: syncImages.userId, set: values });
}

/**
 * The viewer's image for the desktop's versions, when one answers: built at its replica schema,
 * for this protocol and feed schema, still servable from its cursor, and at most `maxImageLag`
 * of the viewer's changes behind the feed. Otherwise null: the desktop's first sync takes the feed.
 */
export async function preparedImage(db: ServerDb, viewer: Viewer, query: SyncImageQuery): Promise<SyncImage | null> {
  checkSyncVersions(query);
  const [row] = await db
    .select({
      sha256: syncImages.sha256,
      bytes: sql<number>`octet_length(${syncImages.body})`.mapWith(Number),
      replicaVersion: syncImages.replicaVersion,
      schemaVersion: syncImages.schemaVersion,
      cursor: syncImages.cursor,
      changes: syncImages.changes,
      position: syncImages.position,
      builtAt: syncImages.builtAt,
    })
    .from(syncImages)
    .innerJoin(users, eq(users.id, syncImages.userId))
    .where(and(eq(syncImages.userId, viewer.id), eq(syncImages.replicaVersion, query.replicaVersion), servable(syncImages)))
    .limit(1);
  if (!row || (await changesSince(db, viewer, row.position)) > maxImageLag) return null;
  const { position: _position, builtAt, ...image } = row;
  return { ...image, userId: viewer.id, builtAt: builtAt.toISOString() };
}

/** The first byte a `Range: bytes=N-` (or `N-M`) header asks for; 0 without one. */
function rangeStart(header: string | undefined, length: number): number {
  if (header === undefined) return 0;
  const match = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim());
  const start = match ? Number(match[1]) : NaN;
  if (!(start < length)) throw new AppFailure('bad_request', `the range ${header} is not within the image's ${length} bytes`);
  return start;
}

export interface ImageDownloadOptions<U extends Viewer> {
  db: ServerDb;
  authenticate(authorization: string | undefined): Promise<U>;
}

/**
 * The compressed image by its SHA-256, from the first byte of a range to its end (206), or whole
 * (200). Only its own user gets it; an image built again since is another name, so a download
 * resumed across a rebuild is told 404 and starts over.
 */
export function registerImageDownload<U extends Viewer>(app: FastifyInstance, options: ImageDownloadOptions<U>): void {
  const { db } = options;
  app.get(syncImageBodyPath, { compress: false }, async (request, reply) => {
    const viewer = await options.authenticate(request.headers.authorization);
    const sha256 = sha256HexSchema.safeParse((request.params as { sha256?: unknown }).sha256);
    if (!sha256.success) throw new AppFailure('not_found', 'there is no such replica image');
    const [found] = await db
      .select({ bytes: sql<number>`octet_length(${syncImages.body})`.mapWith(Number) })
      .from(syncImages)
      .where(and(eq(syncImages.userId, viewer.id), eq(syncImages.sha256, sha256.data)));
    if (!found) throw new AppFailure('not_found', 'there is no such replica image');
    const start = rangeStart(request.headers.range, found.bytes);
    // Only the asked bytes leave PostgreSQL (the body is stored uncompressed by it, out of line).
    const [part] = await db
      .select({ body: sql<Buffer | Uint8Array>`substring(${syncImages.body} from ${start + 1})` })
      .from(syncImages)
      .where(and(eq(syncImages.userId, viewer.id), eq(syncImages.sha256, sha256.data)));
    if (!part) throw new AppFailure('not_found', 'there is no such replica image');
    const body = Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body.buffer, part.body.byteOffset, part.body.byteLength);
    void reply.header('content-type', 'application/octet-stream').header('accept-ranges', 'bytes').header('etag', `"${sha256.data}"`);
    if (request.headers.range !== undefined) void reply.code(206).header('content-range', `bytes ${start}-${found.bytes - 1}/${found.bytes}`);
    return reply.send(body);
  });
}
