import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { syncImageSchema, type SyncImage } from '../../../src-shared/api/sync';
import { AppFailure } from '../../../src-shared/errors';
import type { ContractServerClient } from '../contract-server/client';

// A replica image's download (architecture, "First sync"): compressed, into a file beside the
// replica, resumed from the bytes already there when it is still the same image (its SHA-256),
// then checked whole and unpacked for the take-in. A cut anywhere keeps what arrived.

/** The files of an image on its way in, beside the replica they are for. */
export interface ImageFiles {
  /** The compressed bytes as they arrive. */
  compressed: string;
  /** Which image they are of. */
  described: string;
  /** The image unpacked, for the take-in. */
  unpacked: string;
}

export const imageFilesOf = (replicaPath: string): ImageFiles => ({
  compressed: `${replicaPath}.image.br`,
  described: `${replicaPath}.image.json`,
  unpacked: `${replicaPath}.image.sqlite`,
});

export function discardImage(files: ImageFiles): void {
  for (const path of [files.compressed, files.described, files.unpacked, `${files.unpacked}-journal`, `${files.unpacked}-wal`, `${files.unpacked}-shm`]) rmSync(path, { force: true });
}

/** The image the bytes kept on disk are of, if any. */
function keptImage(files: ImageFiles): SyncImage | null {
  try {
    const kept = syncImageSchema.safeParse(JSON.parse(readFileSync(files.described, 'utf8')));
    return kept.success && existsSync(files.compressed) ? kept.data : null;
  } catch {
    return null;
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface ImageDownloadOptions {
  client: ContractServerClient;
  token(): string;
  /** How long a wait for the next bytes may take before the download counts as cut. */
  stallMs: number;
  /** The bytes in so far, as they come. */
  onProgress(received: number): void;
}

/**
 * Brings `image` into `files.unpacked`: downloads what is missing, checks the whole, unpacks it.
 * A cut fails with `server_unreachable` and keeps the bytes; an image that arrives other than it
 * was described fails with `validation_failed` and is gone.
 */
export async function fetchImage(image: SyncImage, files: ImageFiles, options: ImageDownloadOptions): Promise<void> {
  if (keptImage(files)?.sha256 !== image.sha256) {
    discardImage(files);
    writeFileSync(files.described, JSON.stringify(image));
  }
  let received = existsSync(files.compressed) ? statSync(files.compressed).size : 0;
  if (received > image.bytes) {
    rmSync(files.compressed);
    received = 0;
  }
  if (received < image.bytes) await download(image, files, received, options);
  const size = statSync(files.compressed).size;
  if (size < image.bytes) throw new AppFailure('server_unreachable', 'The replica image stopped arriving before its end.');
  if (size !== image.bytes || (await sha256Of(files.compressed)) !== image.sha256) {
    discardImage(files);
    throw new AppFailure('validation_failed', 'The prepared replica image did not arrive as it was described.');
  }
  rmSync(files.unpacked, { force: true });
  try {
    await pipeline(createReadStream(files.compressed), zlib.createBrotliDecompress(), createWriteStream(files.unpacked));
  } catch {
    discardImage(files);
    throw new AppFailure('validation_failed', 'The prepared replica image could not be unpacked.');
  }
}

async function download(image: SyncImage, files: ImageFiles, from: number, options: ImageDownloadOptions): Promise<void> {
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waitAtMost = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop.abort(), options.stallMs);
  };
  waitAtMost();
  try {
    const response = await options.client.downloadImage(image.sha256, options.token(), from, stop.signal);
    // A server that sends the whole (200) is written from the start.
    let received = response.status === 206 ? from : 0;
    const out = createWriteStream(files.compressed, { flags: received > 0 ? 'a' : 'w' });
    try {
      const reader = response.body!.getReader();
      for (;;) {
        waitAtMost();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          throw new AppFailure('server_unreachable');
        }
        if (chunk.done) break;
        if (!out.write(chunk.value)) await once(out, 'drain');
        received += chunk.value.byteLength;
        options.onProgress(received);
      }
    } finally {
      out.end();
      await once(out, 'close');
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}
