// What the core needs from whoever hosts it (Electron shell, web host, tests). The core never
// reaches for a host's API directly: it gets these ports.

export interface Clock {
  now(): Date;
}

export interface Logger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

/**
 * Keeps one secret text (the signed-in session with its tokens). The Electron shell backs it with
 * the OS keychain (safeStorage); plain Node keeps it in a file only the user can read.
 */
export interface SecretStore {
  read(): string | null;
  write(secret: string | null): void;
}

/**
 * Protects each replica's key at rest. The Electron shell wraps it with the OS keychain
 * (safeStorage); plain Node hosts keep it as is in a file only the user can read (weaker: anyone
 * who can read the user's files reads the key, docs/security.md).
 */
export interface KeyWrapper {
  readonly protection: 'keychain' | 'file';
  wrap(key: Buffer): string;
  /** Throws when the wrapped key cannot be opened (another keychain, a damaged text). */
  unwrap(wrapped: string): Buffer;
}

export const systemClock: Clock = { now: () => new Date() };

export const consoleLogger: Logger = {
  info: (message, detail) => console.info(`[core] ${message}`, detail ?? ''),
  warn: (message, detail) => console.warn(`[core] ${message}`, detail ?? ''),
  error: (message, detail) => console.error(`[core] ${message}`, detail ?? ''),
};
