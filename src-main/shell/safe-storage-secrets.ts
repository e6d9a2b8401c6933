import type { SafeStorage } from 'electron';
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomically } from '../core/files';
import type { SecretStore } from '../core/ports';

/** Keeps the session encrypted with the OS keychain (DPAPI, Keychain, libsecret). */
export function safeStorageSecretStore(safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>, path: string): SecretStore {
  return {
    read() {
      try {
        return safeStorage.decryptString(Buffer.from(readFileSync(path, 'utf8'), 'base64'));
      } catch {
        return null;
      }
    },
    write(secret) {
      if (secret === null || !safeStorage.isEncryptionAvailable()) {
        // Without a keychain the session is not kept: the user signs in at each start.
        rmSync(path, { force: true });
        return;
      }
      writeFileAtomically(path, safeStorage.encryptString(secret).toString('base64'));
    },
  };
}
