import type { SafeStorage } from 'electron';
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomically } from '../core/files';
import type { KeyWrapper, Logger, SecretStore } from '../core/ports';
import { fileKeyWrapper } from '../core/vault/replica-keys';

type KeychainStorage = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;

/** Keeps the session encrypted with the OS keychain (DPAPI, Keychain, libsecret). */
export function safeStorageSecretStore(safeStorage: KeychainStorage, path: string): SecretStore {
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

/**
 * Wraps each replica's key with the OS keychain. Where the system has none (Linux without a secret
 * service, where Electron falls back to a fixed password: 'basic_text') the key is kept as the web
 * host keeps it, in a file only the user can read, and the log says so.
 */
export function safeStorageKeyWrapper(
  safeStorage: KeychainStorage & Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>,
  platform: NodeJS.Platform,
  logger: Logger,
): KeyWrapper {
  const weakLinuxBackend = platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text';
  if (!safeStorage.isEncryptionAvailable() || weakLinuxBackend) {
    logger.warn('no OS keychain: the local data keys are kept in files only this user can read');
    return fileKeyWrapper;
  }
  return {
    protection: 'keychain',
    wrap: (key) => safeStorage.encryptString(key.toString('base64')).toString('base64'),
    unwrap: (wrapped) => Buffer.from(safeStorage.decryptString(Buffer.from(wrapped, 'base64')), 'base64'),
  };
}
