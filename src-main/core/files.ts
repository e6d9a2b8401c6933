import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretStore } from './ports';

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export function writeFileAtomically(path: string, text: string, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, path);
}

export function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A secret kept in a file readable by the user alone (plain Node hosts). */
export function fileSecretStore(path: string): SecretStore {
  return {
    read: () => readTextOrNull(path),
    write: (secret) => (secret === null ? rmSync(path, { force: true }) : writeFileAtomically(path, secret)),
  };
}
