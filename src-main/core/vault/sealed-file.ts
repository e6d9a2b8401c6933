import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// The files the core keeps (archived PDFs, uploads on their way, exports until read) are sealed
// with AES-256-GCM, each under its own key: a random salt in the file's header derives it (HKDF)
// from the key the caller holds. The plaintext is cut into segments of 64 KiB, each sealed with
// its own nonce (its index, and a flag on the last one, as in the STREAM construction), so a
// piece is read without decrypting the whole file, and a reordered, truncated or extended file
// fails its tags instead of reading as something else.

const magic = Buffer.from('CDSEAL1\0', 'latin1');
const saltBytes = 32;
const headerBytes = magic.length + saltBytes;
export const segmentBytes = 64 * 1024;
const tagBytes = 16;
const sealedSegmentBytes = segmentBytes + tagBytes;

/** A fresh random key for a file kept only while the process holds it (an upload, an export). */
export const ephemeralFileKey = (): Buffer => randomBytes(32);

function fileKey(key: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', key, salt, 'contract-desk sealed file', 32));
}

function nonce(index: number, last: boolean): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeUIntBE(index, 5, 6);
  bytes[11] = last ? 1 : 0;
  return bytes;
}

function sealSegment(key: Buffer, header: Buffer, index: number, last: boolean, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce(index, last));
  cipher.setAAD(header);
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function openSegment(key: Buffer, header: Buffer, index: number, last: boolean, sealed: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, nonce(index, last));
  decipher.setAAD(header);
  decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - tagBytes)), decipher.final()]);
  } catch {
    throw new Error('a sealed file failed its integrity check (a wrong key, or a changed file)');
  }
}

/** Cuts plaintext into sealed segments: the header first, then each full segment, the last at `end`. */
class Sealer {
  private readonly header: Buffer;
  private readonly key: Buffer;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;
  private started = false;

  constructor(key: Buffer) {
    const salt = randomBytes(saltBytes);
    this.header = Buffer.concat([magic, salt]);
    this.key = fileKey(key, salt);
  }

  push(bytes: Buffer): Buffer[] {
    const out = this.start();
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    // A full segment is sealed only once more follows: the last one carries the flag.
    if (this.pendingBytes <= segmentBytes) return out;
    const all = Buffer.concat(this.pending);
    let at = 0;
    for (; all.length - at > segmentBytes; at += segmentBytes) {
      out.push(sealSegment(this.key, this.header, this.index++, false, all.subarray(at, at + segmentBytes)));
    }
    this.pending = [all.subarray(at)];
    this.pendingBytes = all.length - at;
    return out;
  }

  end(): Buffer[] {
    const out = this.start();
    out.push(sealSegment(this.key, this.header, this.index++, true, Buffer.concat(this.pending)));
    this.pending = [];
    this.pendingBytes = 0;
    return out;
  }

  private start(): Buffer[] {
    if (this.started) return [];
    this.started = true;
    return [this.header];
  }
}

/** A stream that seals what goes through it (a download on its way to the disk, an export). */
export function sealingStream(key: Buffer): Transform {
  const sealer = new Sealer(key);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (const piece of sealer.push(chunk)) this.push(piece);
      done();
    },
    flush(done) {
      for (const piece of sealer.end()) this.push(piece);
      done();
    },
  });
}

/** Writes a sealed file piece by piece (an upload's chunks); the tail waits in memory until `finish`. */
export async function sealedFileWriter(path: string, key: Buffer) {
  const handle = await open(path, 'wx', 0o600);
  const sealer = new Sealer(key);
  let size = 0;
  const write = async (pieces: Buffer[]) => {
    for (const piece of pieces) await handle.write(piece);
  };
  return {
    async append(bytes: Buffer): Promise<void> {
      await write(sealer.push(bytes));
      size += bytes.length;
    },
    /** Seals the last segment and closes the file; its plaintext size. */
    async finish(): Promise<number> {
      await write(sealer.end());
      await handle.close();
      return size;
    },
    close: () => handle.close().catch(() => undefined),
  };
}

/** The plaintext size of a sealed file of `fileBytes` bytes. */
export function plainSize(fileBytes: number): number {
  const body = fileBytes - headerBytes;
  if (body < tagBytes) throw new Error('a sealed file is shorter than its header and one segment');
  const segments = Math.ceil(body / sealedSegmentBytes);
  return body - segments * tagBytes;
}

/** A sealed file opened for reading pieces of its plaintext. */
export async function openSealedFile(path: string, key: Buffer) {
  const handle: FileHandle = await open(path, 'r');
  try {
    const { size: fileBytes } = await handle.stat();
    const size = plainSize(fileBytes);
    const header = Buffer.alloc(headerBytes);
    await handle.read(header, 0, headerBytes, 0);
    if (!header.subarray(0, magic.length).equals(magic)) throw new Error('not a sealed file');
    const segmentKey = fileKey(key, header.subarray(magic.length));
    const lastIndex = Math.max(0, Math.ceil(size / segmentBytes) - 1);
    const segment = async (index: number): Promise<Buffer> => {
      const start = headerBytes + index * sealedSegmentBytes;
      const length = Math.min(sealedSegmentBytes, fileBytes - start);
      const sealed = Buffer.alloc(length);
      await handle.read(sealed, 0, length, start);
      return openSegment(segmentKey, header, index, index === lastIndex, sealed);
    };
    return {
      size,
      /** Up to `length` bytes of plaintext from `offset`. */
      async read(offset: number, length: number): Promise<Buffer> {
        const end = Math.min(size, offset + length);
        if (offset >= end) return Buffer.alloc(0);
        const parts: Buffer[] = [];
        for (let index = Math.floor(offset / segmentBytes); index * segmentBytes < end; index++) {
          const plain = await segment(index);
          const from = Math.max(0, offset - index * segmentBytes);
          parts.push(plain.subarray(from, Math.min(plain.length, end - index * segmentBytes)));
        }
        return Buffer.concat(parts);
      },
      close: () => handle.close(),
    };
  } catch (cause) {
    await handle.close();
    throw cause;
  }
}

/** The whole plaintext of a sealed file. */
export async function readSealedFile(path: string, key: Buffer): Promise<Buffer> {
  const file = await openSealedFile(path, key);
  try {
    return await file.read(0, file.size);
  } finally {
    await file.close();
  }
}

/** Whether the file starts as a sealed file does (a file kept before files were sealed does not). */
export async function isSealedFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(magic);
  } finally {
    await handle.close();
  }
}

/** Seals a plain file in place (through a temporary file and a rename: never half a file). */
export async function sealInPlace(path: string, key: Buffer): Promise<void> {
  const temporary = `${path}.sealing`;
  await pipeline(createReadStream(path), sealingStream(key), createWriteStream(temporary, { mode: 0o600 }));
  await rename(temporary, path);
}
