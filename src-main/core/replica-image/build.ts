import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { syncPullResponseSchema } from '../../../src-shared/api/sync';
import type { ImageBuildAnswer, ImageBuildSetup } from '../../../src-shared/sync/image-build';
import { exactParser } from '../../../src-shared/sync/exact-check';
import { packedPullResponseSchema, unpackPullResponse } from '../../../src-shared/sync/feed-codec';
import { forgetDeferredIndexes, sealImage } from '../data/replica-image';
import { knownSchemaVersion, openReplica } from '../data/replica';
import { replicaWriter } from '../data/replica-sync';
import { replicaFeatures } from '../features';

// A user's replica image, built as the desktop's first sync would write it (architecture, "First
// sync"): the same migrations, the same checks of each page and the same pull writers, then the
// pull's own end (the task upkeep it derives) without the indexes it would build, which the
// desktop builds as it takes the image in. The contract server runs this on a worker thread
// (worker.ts) and keeps the compressed result.

/**
 * Brotli's quality 5 with a 16 MB window: an image of 50,000 contracts and 200,000 tasks (about
 * 95 MB of pages) compresses to about the feed's bytes in a few seconds of a background thread.
 */
const imageQuality = 5;
const imageWindowBits = 24;

const parsePacked = exactParser(packedPullResponseSchema);
const parsePage = exactParser(syncPullResponseSchema);

export interface ImageBuilder {
  /** One packed page of the user's first sync, as a line of the feed stream. */
  page(line: string): void;
  /** Ends the pull, seals and compresses the image; its files are gone afterwards. */
  finish(userId: string, builtAt: string): Extract<ImageBuildAnswer, { kind: 'done' }>;
}

const malformed = () => new Error('a page of the first sync does not match the sync protocol');

export function replicaImageBuilder({ migrationsDir, workDir }: ImageBuildSetup): ImageBuilder {
  mkdirSync(workDir, { recursive: true });
  const building = join(workDir, 'building.sqlite');
  const sealed = join(workDir, 'image.sqlite');
  for (const path of [building, `${building}-wal`, `${building}-shm`, `${building}-journal`]) rmSync(path, { force: true });
  const replica = openReplica(building, migrationsDir);
  const writer = replicaWriter(replica, replicaFeatures);
  let changes = 0;
  let cursor = '0';
  const cleanUp = () => {
    replica.close();
    for (const path of [building, `${building}-wal`, `${building}-shm`, `${building}-journal`, sealed]) rmSync(path, { force: true });
  };
  return {
    page(line) {
      const packed = parsePacked(JSON.parse(line) as unknown);
      if (!packed.success) throw malformed();
      const page = parsePage(unpackPullResponse(packed.data));
      if (!page.success) throw malformed();
      writer.applyPulledChanges(page.data.changes, page.data.cursor, new Date().toISOString());
      changes += page.data.changes.length;
      cursor = page.data.cursor;
    },
    finish(userId, builtAt) {
      try {
        forgetDeferredIndexes(replica.sqlite);
        writer.finishPull();
        replica.sqlite.prepare(`insert or replace into replica_meta (key, value) values ('last_sync_at', ?)`).run(builtAt);
        sealImage(replica.sqlite, userId, sealed);
        const raw = readFileSync(sealed);
        const body = zlib.brotliCompressSync(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: imageQuality,
            [zlib.constants.BROTLI_PARAM_LGWIN]: imageWindowBits,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const sha256 = createHash('sha256').update(body).digest('hex');
        return { kind: 'done', body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), sha256, replicaVersion: knownSchemaVersion(migrationsDir), rawBytes: raw.length, changes, cursor };
      } finally {
        cleanUp();
      }
    },
  };
}
