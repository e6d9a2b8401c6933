import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ephemeralFileKey,
  isSealedFile,
  openSealedFile,
  readSealedFile,
  sealedFileWriter,
  sealInPlace,
  sealingStream,
  segmentBytes,
} from '../../src-main/core/vault/sealed-file';
import { tempDir } from '../support/temp';

// Kept files sealed with AES-256-GCM per file, in 64 KiB segments (issue 32 item 1).

const dir = tempDir('contract-desk-sealed-');
afterAll(() => dir.cleanup());
const key = ephemeralFileKey();
const marker = Buffer.from('Counterparty Secret Holdings Ltd 987654321');

async function sealed(name: string, plain: Buffer, pieces = 1): Promise<string> {
  const path = join(dir.path, name);
  const step = Math.ceil(plain.length / pieces) || 1;
  const chunks = Array.from({ length: Math.max(1, Math.ceil(plain.length / step)) }, (_, i) => plain.subarray(i * step, (i + 1) * step));
  await pipeline(Readable.from(chunks), sealingStream(key), createWriteStream(path));
  return path;
}

describe('sealed files', () => {
  it('round-trips any size, in any pieces, and keeps nothing of the plaintext on disk', async () => {
    for (const size of [0, 1, segmentBytes - 1, segmentBytes, segmentBytes + 1, 2 * segmentBytes, 3 * segmentBytes + 77]) {
      const plain = Buffer.concat([marker, randomBytes(size)]).subarray(0, size);
      const path = await sealed(`s-${size}`, plain, 7);
      expect(await readSealedFile(path, key)).toEqual(plain);
      expect(await isSealedFile(path)).toBe(true);
      if (size >= marker.length) expect(readFileSync(path).includes(marker)).toBe(false);
    }
  });

  it('reads any piece without the rest', async () => {
    const plain = randomBytes(5 * segmentBytes + 1234);
    const file = await openSealedFile(await sealed('pieces', plain), key);
    try {
      expect(file.size).toBe(plain.length);
      for (const [offset, length] of [[0, 10], [segmentBytes - 5, 10], [3 * segmentBytes, 2 * segmentBytes + 5000], [plain.length - 3, 100], [plain.length, 5]] as const) {
        expect(await file.read(offset, length)).toEqual(plain.subarray(offset, offset + length));
      }
    } finally {
      await file.close();
    }
  });

  it('writes an upload chunk by chunk, the tail kept in memory until it finishes', async () => {
    const plain = randomBytes(3 * segmentBytes + 999);
    const path = join(dir.path, 'upload.part');
    const writer = await sealedFileWriter(path, key);
    for (let at = 0; at < plain.length; at += 40_000) await writer.append(plain.subarray(at, at + 40_000));
    expect(await writer.finish()).toBe(plain.length);
    expect(await readSealedFile(path, key)).toEqual(plain);
  });

  it('refuses a wrong key, a changed byte, a truncated and a cut-short file', async () => {
    const plain = randomBytes(2 * segmentBytes + 10);
    const path = await sealed('tamper', plain);
    const bytes = readFileSync(path);
    await expect(readSealedFile(path, ephemeralFileKey())).rejects.toThrow(/integrity/);
    const changed = Buffer.from(bytes);
    changed[100] = changed[100]! ^ 1;
    writeFileSync(path, changed);
    await expect(readSealedFile(path, key)).rejects.toThrow(/integrity/);
    // The last segment dropped: the one before it is not sealed as a last one.
    writeFileSync(path, bytes.subarray(0, bytes.length - 26));
    await expect(readSealedFile(path, key)).rejects.toThrow(/integrity/);
    writeFileSync(path, bytes.subarray(0, bytes.length - 1));
    await expect(readSealedFile(path, key)).rejects.toThrow(/integrity/);
  });

  it('seals a file kept in clear by an earlier build in place', async () => {
    const path = join(dir.path, 'old.pdf');
    const plain = Buffer.concat([Buffer.from('%PDF-1.7 '), marker, randomBytes(70_000)]);
    writeFileSync(path, plain);
    expect(await isSealedFile(path)).toBe(false);
    await sealInPlace(path, key);
    expect(await isSealedFile(path)).toBe(true);
    expect(readFileSync(path).includes(marker)).toBe(false);
    expect(await readSealedFile(path, key)).toEqual(plain);
  });
});
