import { hkdfSync, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { z } from 'zod';
import { readTextOrNull, writeFileAtomically } from '../files';
import type { KeyWrapper } from '../ports';

// Each replica has its own random 256-bit key, kept beside it in `<replica>.key` (mode 0600) as
// the host's key wrapper left it: sealed by the OS keychain in the desktop, as it is in the web
// host (whose only protection is the file's mode: docs/security.md). The replica's SQLCipher key
// and the key of its kept files are both derived from it, so neither is ever the same as the other.

export const replicaKeyBytes = 32;

const keyFileSchema = z.object({ version: z.literal(1), protection: z.enum(['keychain', 'file']), key: z.string().min(1) });

export const keyFilePath = (replicaPath: string) => `${replicaPath}.key`;

export type ReadKey = { state: 'present'; key: Buffer } | { state: 'missing' } | { state: 'unreadable' };

/**
 * The replica's key: missing when no key file exists; unreadable when the file is damaged, its
 * wrapping is not this host's, or the keychain no longer opens it (another user profile, a
 * reinstalled system).
 */
export function readReplicaKey(replicaPath: string, wrapper: KeyWrapper): ReadKey {
  const text = readTextOrNull(keyFilePath(replicaPath));
  if (text === null) return { state: 'missing' };
  try {
    const stored = keyFileSchema.parse(JSON.parse(text));
    if (stored.protection !== wrapper.protection) return { state: 'unreadable' };
    const key = wrapper.unwrap(stored.key);
    return key.length === replicaKeyBytes ? { state: 'present', key } : { state: 'unreadable' };
  } catch {
    return { state: 'unreadable' };
  }
}

/** A new random key for the replica at `replicaPath`, kept wrapped in its key file. */
export function createReplicaKey(replicaPath: string, wrapper: KeyWrapper): Buffer {
  const key = randomBytes(replicaKeyBytes);
  writeFileAtomically(keyFilePath(replicaPath), JSON.stringify({ version: 1, protection: wrapper.protection, key: wrapper.wrap(key) }));
  return key;
}

export function removeReplicaKey(replicaPath: string): void {
  rmSync(keyFilePath(replicaPath), { force: true });
}

/** The key a part of the replica uses, derived from its key by purpose. */
export function derivedKey(key: Buffer, purpose: 'database' | 'files'): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `contract-desk replica ${purpose}`, replicaKeyBytes));
}

/** The plain-file wrapper of hosts without a keychain (the web host, tests): the key file's mode is its protection. */
export const fileKeyWrapper: KeyWrapper = {
  protection: 'file',
  wrap: (key) => key.toString('base64'),
  unwrap: (wrapped) => Buffer.from(wrapped, 'base64'),
};

// How many edits wait in the replica's outbox, kept outside it: a replica whose key is lost
// cannot be read, and the user is told how many unsent edits went with it.
const queuedPath = (replicaPath: string) => `${replicaPath}.queued`;

export function recordQueuedEdits(replicaPath: string, queued: number): void {
  writeFileAtomically(queuedPath(replicaPath), String(queued));
}

/** The count last recorded; 0 when none was (a replica that never queued an edit). */
export function recordedQueuedEdits(replicaPath: string): number {
  const count = Number(readTextOrNull(queuedPath(replicaPath)) ?? 0);
  return Number.isSafeInteger(count) && count > 0 ? count : 0;
}
