import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { tokenPairSchema, type TokenPair } from '../../../src-shared/api/endpoints';
import { userSchema, type User } from '../../../src-shared/domain/user';
import { AppFailure, reason, type AppError } from '../../../src-shared/errors';
import type { SessionInfo } from '../../../src-shared/ipc/channels';
import { setReplicaOwner } from '../data/outbox';
import { openReplica, setCorruptReplicaAside, type OpenReplica } from '../data/replica';
import { ephemeralFileKey } from '../vault/sealed-file';
import { createReplicaKey, derivedKey, readReplicaKey, recordedQueuedEdits, removeReplicaKey } from '../vault/replica-keys';
import type { ReplicaFeatures } from '../data/replica-features';
import { metaReader, replicaWriter, type MetaReader, type ReplicaWriter } from '../data/replica-sync';
import { createContractServerClient, type ContractServerClient } from '../contract-server/client';
import type { Clock, KeyWrapper, Logger, SecretStore } from '../ports';
import { deviceIdentity } from './device-identity';
import { createOfflineLock, freshLockState, makeVerifier, offlineLockStateSchema, type OfflineLock, type OfflineLockState } from './offline-lock';

/** A session kept by a build before the offline lock has none: its lock counts from its first start here. */
const storedSessionSchema = z.object({ serverUrl: z.string(), user: userSchema, tokens: tokenPairSchema, lock: offlineLockStateSchema.optional() });
type StoredSession = z.infer<typeof storedSessionSchema>;

/** Everything that exists only while someone is signed in: their replica and their server. */
export interface ActiveSession {
  readonly serverUrl: string;
  readonly user: User;
  readonly client: ContractServerClient;
  readonly replica: OpenReplica;
  /** The key the files kept for this replica (archived PDFs) are sealed with. */
  readonly fileKey: Buffer;
  /** What each feature plugs into the replica's sync (src-main/core/features.ts). */
  readonly features: ReplicaFeatures;
  readonly meta: MetaReader;
  readonly writer: ReplicaWriter;
  /** The offline lock: while locked, no data channel answers (src-main/core/core.ts). */
  readonly lock: OfflineLock;
  /** The current access token, read at send time. */
  token(): string;
  /** Rotates the tokens with the refresh token; fails with `unauthorized` when that is refused. */
  refreshTokens(): Promise<void>;
}

export interface SessionServiceOptions {
  dataDir: string;
  migrationsDir: string;
  secrets: SecretStore;
  /**
   * Protects each replica's key (the OS keychain in the desktop). Null only in the benches that
   * measure what encryption costs: their replicas are plain, and kept files are sealed with a key
   * of the session's own.
   */
  keys: KeyWrapper | null;
  clock: Clock;
  logger: Logger;
  features: ReplicaFeatures;
  /** Told to the server with the device at sign-in. */
  appVersion: string;
  /**
   * The server refused the session's device as revoked (issue 32): the core stops the session's
   * work and calls `wipeRevoked`. Called once per session.
   */
  onDeviceRevoked(session: ActiveSession, refusal: AppError): void;
  /** The server answered a locked session: it is open again (issue 32, the offline lock). */
  onContactUnlocked(session: ActiveSession): void;
  fetch?: typeof fetch;
}

const isDeviceRevoked = (cause: unknown): cause is AppFailure => cause instanceof AppFailure && cause.error.code === 'device_revoked';

/**
 * The client with every contact watched: whichever call meets the device's revocation first (a
 * sync, an upload, a screen's read) reports it, and still fails as it did; every answered call but
 * the health check (which needs no session) is a contact of the offline lock.
 */
function watchedContacts(client: ContractServerClient, clock: Clock, revoked: (refusal: AppError) => void, reached: (sentAt: Date) => void): ContractServerClient {
  const watched = { ...client };
  for (const [name, value] of Object.entries(client)) {
    if (typeof value !== 'function') continue;
    (watched as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      // The contact counts from when the call was sent: its answer proves the server was there then.
      const sentAt = clock.now();
      try {
        const answer: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(client, args);
        if (!(name === 'call' && args[0] === 'health')) reached(sentAt);
        return answer;
      } catch (cause) {
        if (isDeviceRevoked(cause)) revoked(cause.error);
        throw cause;
      }
    };
  }
  return watched;
}

/**
 * Removes everything kept for the replica at `path`: the database with its WAL, its key, its kept
 * and queued files, its outbox count and any copy set aside. They all begin with its file name.
 */
function wipeReplicaFiles(path: string): void {
  const dir = dirname(path);
  const name = basename(path);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.startsWith(name)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/** One replica file per server and user, so two people on one laptop never see each other's data. */
export function replicaPathFor(dataDir: string, serverUrl: string, userId: string): string {
  const key = createHash('sha256').update(`${serverUrl.toLowerCase()}\n${userId}`).digest('hex').slice(0, 24);
  return join(dataDir, 'replicas', `${key}.sqlite`);
}

/** A value made once per signed-in session (e.g. a reader with its prepared statements), dropped with it. */
export function perSession<T>(make: (session: ActiveSession) => T): (session: ActiveSession) => T {
  const made = new WeakMap<ActiveSession, T>();
  return (session) => {
    if (!made.has(session)) made.set(session, make(session));
    return made.get(session)!;
  };
}

interface KeyedReplica {
  replica: OpenReplica;
  fileKey: Buffer;
  /** Set when the replica's key was lost and a fresh one was made: what the user is told. */
  notice: AppError | null;
}

export function createSessionService(options: SessionServiceOptions) {
  const { dataDir, migrationsDir, secrets, clock, logger } = options;
  const describeDevice = deviceIdentity(dataDir, options.appVersion);
  let active: ActiveSession | null = null;
  /** Why the last attempt to open a stored session failed, shown on the sign-in screen. */
  let problem: AppError | null = null;
  /** What the user is told about the open session's replica (its key was lost). */
  let notice: AppError | null = null;

  function openWithKey(path: string, key: Buffer): KeyedReplica {
    return { replica: openReplica(path, migrationsDir, { key: derivedKey(key, 'database') }), fileKey: derivedKey(key, 'files'), notice: null };
  }

  /**
   * Opens the replica with its key, making one for a new replica (or a plain one, encrypted on
   * opening). A replica its key does not open (the key file lost, the keychain changed) cannot be
   * read by anyone: it is set aside, a fresh one is synced from the server, and the user is told
   * how many of its edits were never sent.
   */
  function openKeyedReplica(path: string): KeyedReplica {
    const keys = options.keys;
    if (!keys) return { replica: openReplica(path, migrationsDir), fileKey: ephemeralFileKey(), notice: null };
    const read = readReplicaKey(path, keys);
    try {
      return openWithKey(path, read.state === 'present' ? read.key : createReplicaKey(path, keys));
    } catch (cause) {
      if (!(cause instanceof AppFailure) || cause.error.code !== 'replica_key_lost') throw cause;
      // The key it was made with does not open it: the file is damaged, its key is not lost.
      if (read.state === 'present') throw new AppFailure('replica_corrupt');
      const unsent = recordedQueuedEdits(path);
      const aside = setCorruptReplicaAside(path, clock.now(), 'key-lost');
      removeReplicaKey(path);
      logger.warn(`the replica's key is lost: set it aside at ${aside} (${unsent} unsent edits) and started afresh`);
      const fresh = openWithKey(path, createReplicaKey(path, keys));
      const lost = new AppFailure('replica_key_lost', undefined, undefined, unsent > 0 ? reason('unsentEditsLost', { count: unsent }) : undefined).error;
      return { ...fresh, notice: lost };
    }
  }

  function activate(stored: StoredSession, { replica, fileKey }: KeyedReplica, lockState: OfflineLockState): ActiveSession {
    let tokens: TokenPair = stored.tokens;
    setReplicaOwner(replica.db, stored.user);
    let reported = false;
    // Only the open session writes: a late answer after sign-out must not bring the stored session back.
    const persist = () => {
      if (active === session) secrets.write(JSON.stringify({ serverUrl: stored.serverUrl, user: stored.user, tokens, lock: lock.state() } satisfies StoredSession));
    };
    const lock = createOfflineLock({ state: lockState, clock, save: persist });
    const reached = (sentAt: Date, days?: number) => {
      if (lock.noteContact(sentAt, days)) options.onContactUnlocked(session);
    };
    const revoked = (refusal: AppError) => {
      if (reported) return;
      reported = true;
      options.onDeviceRevoked(session, refusal);
    };
    const client = watchedContacts(createContractServerClient(stored.serverUrl, { fetch: options.fetch }), clock, revoked, reached);
    const session: ActiveSession = {
      serverUrl: stored.serverUrl,
      user: stored.user,
      client,
      replica,
      fileKey,
      features: options.features,
      meta: metaReader(replica),
      writer: replicaWriter(replica, options.features),
      lock,
      token: () => tokens.token,
      async refreshTokens() {
        const sentAt = clock.now();
        try {
          const { offlineLockDays, ...pair } = await client.call('refresh', { body: { refreshToken: tokens.refreshToken } });
          tokens = pair;
          // The days may have changed (the organisation's, or this device's own).
          reached(sentAt, offlineLockDays);
        } catch (cause) {
          if (cause instanceof AppFailure && (cause.error.code === 'server_unreachable' || cause.error.code === 'device_revoked')) throw cause;
          throw new AppFailure('unauthorized');
        }
        persist();
      },
    };
    return session;
  }

  function close(): void {
    active?.replica.close();
    active = null;
    notice = null;
  }

  return {
    info(): SessionInfo {
      if (active) {
        const { lock } = active;
        const locked = lock.locked() ? { locked: { days: lock.state().days, waitSeconds: lock.waitSeconds(), canUnlock: lock.state().verifier !== null } } : {};
        return { signedIn: true, serverUrl: active.serverUrl, user: active.user, ...(notice ? { notice } : {}), ...locked };
      }
      return { signedIn: false, serverUrl: null, ...(problem ? { problem } : {}) };
    },

    active: (): ActiveSession | null => active,

    /** Reopens the session kept from last time, so the app works offline from the first second. */
    restore(): SessionInfo {
      const text = secrets.read();
      if (!text) return this.info();
      let stored: StoredSession;
      try {
        stored = storedSessionSchema.parse(JSON.parse(text));
      } catch {
        logger.warn('the stored session is unreadable; signing out');
        secrets.write(null);
        return this.info();
      }
      try {
        const keyed = openKeyedReplica(replicaPathFor(dataDir, stored.serverUrl, stored.user.id));
        const lock = stored.lock ?? freshLockState(clock.now());
        // Kept at once: the lock of a session from an earlier build counts from its first start here, not each start.
        if (!stored.lock) secrets.write(JSON.stringify({ ...stored, lock } satisfies StoredSession));
        active = activate(stored, keyed, lock);
        problem = null;
        notice = keyed.notice;
        active.lock.check();
        // Past the limit with no password to check it against: only a sign-in opens it.
        if (active.lock.locked() && !active.lock.state().verifier) {
          close();
          problem = new AppFailure('offline_locked', undefined, undefined, reason('offlineLockSignIn')).error;
        }
      } catch (cause) {
        problem = cause instanceof AppFailure ? cause.error : { code: 'internal', message: String(cause) };
        logger.error('could not open the replica of the stored session', cause);
      }
      return this.info();
    },

    async signIn(request: { serverUrl: string; username: string; password: string }): Promise<SessionInfo> {
      const client = createContractServerClient(request.serverUrl, { fetch: options.fetch });
      const login = await client.call('login', { body: { username: request.username, password: request.password, device: describeDevice() } });
      // The password the server just accepted, kept as a verifier only, opens the offline lock later.
      const lockState = freshLockState(clock.now(), await makeVerifier(request.password), login.offlineLockDays);
      const stored: StoredSession = {
        serverUrl: request.serverUrl,
        user: login.user,
        tokens: { token: login.token, refreshToken: login.refreshToken, expiresAt: login.expiresAt },
      };
      const path = replicaPathFor(dataDir, stored.serverUrl, stored.user.id);
      let keyed: KeyedReplica;
      try {
        keyed = openKeyedReplica(path);
      } catch (cause) {
        // A damaged replica holds only synced data, which the server has: keep the file for
        // support and start a fresh one. A newer one is left alone (it is not ours to migrate).
        if (!(cause instanceof AppFailure) || cause.error.code !== 'replica_corrupt') throw cause;
        const aside = setCorruptReplicaAside(path, clock.now());
        logger.warn(`set a damaged replica aside at ${aside}`);
        keyed = openKeyedReplica(path);
      }
      close();
      active = activate(stored, keyed, lockState);
      problem = null;
      notice = keyed.notice;
      secrets.write(JSON.stringify({ ...stored, lock: lockState } satisfies StoredSession));
      return this.info();
    },

    async signOut(): Promise<SessionInfo> {
      const session = active;
      close();
      secrets.write(null);
      problem = null;
      if (session) {
        // Revoking the tokens is a courtesy to the server; signing out works offline too.
        session.client.call('logout', { token: session.token() }).catch(() => undefined);
      }
      return this.info();
    },

    /**
     * A revoked device keeps nothing (issue 32): the replica with its unsent edits, kept and queued
     * files, its key and the stored session go, and the sign-in screen says why. The caller has
     * stopped the session's work first.
     */
    wipeRevoked(session: ActiveSession, refusal: AppError): SessionInfo {
      if (active !== session) return this.info();
      close();
      secrets.write(null);
      wipeReplicaFiles(session.replica.path);
      problem = refusal;
      logger.warn('this device was revoked by an administrator: its local data was erased');
      return this.info();
    },

    close,
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
