import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { tokenPairSchema, type TokenPair } from '../../../src-shared/api/endpoints';
import { userSchema, type User } from '../../../src-shared/domain/user';
import { AppFailure, type AppError } from '../../../src-shared/errors';
import type { SessionInfo } from '../../../src-shared/ipc/channels';
import { setReplicaOwner } from '../data/outbox';
import { openReplica, setCorruptReplicaAside, type OpenReplica } from '../data/replica';
import type { ReplicaFeatures } from '../data/replica-features';
import { metaReader, replicaWriter, type MetaReader, type ReplicaWriter } from '../data/replica-sync';
import { createContractServerClient, type ContractServerClient } from '../contract-server/client';
import type { Clock, Logger, SecretStore } from '../ports';

const storedSessionSchema = z.object({ serverUrl: z.string(), user: userSchema, tokens: tokenPairSchema });
type StoredSession = z.infer<typeof storedSessionSchema>;

/** Everything that exists only while someone is signed in: their replica and their server. */
export interface ActiveSession {
  readonly serverUrl: string;
  readonly user: User;
  readonly client: ContractServerClient;
  readonly replica: OpenReplica;
  /** What each feature plugs into the replica's sync (src-main/core/features.ts). */
  readonly features: ReplicaFeatures;
  readonly meta: MetaReader;
  readonly writer: ReplicaWriter;
  /** The current access token, read at send time. */
  token(): string;
  /** Rotates the tokens with the refresh token; fails with `unauthorized` when that is refused. */
  refreshTokens(): Promise<void>;
}

export interface SessionServiceOptions {
  dataDir: string;
  migrationsDir: string;
  secrets: SecretStore;
  clock: Clock;
  logger: Logger;
  features: ReplicaFeatures;
  fetch?: typeof fetch;
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

export function createSessionService(options: SessionServiceOptions) {
  const { dataDir, migrationsDir, secrets, clock, logger } = options;
  let active: ActiveSession | null = null;
  /** Why the last attempt to open a stored session failed, shown on the sign-in screen. */
  let problem: AppError | null = null;

  function activate(stored: StoredSession, replica: OpenReplica): ActiveSession {
    let tokens: TokenPair = stored.tokens;
    setReplicaOwner(replica.db, stored.user);
    const client = createContractServerClient(stored.serverUrl, { fetch: options.fetch });
    return {
      serverUrl: stored.serverUrl,
      user: stored.user,
      client,
      replica,
      features: options.features,
      meta: metaReader(replica),
      writer: replicaWriter(replica, options.features),
      token: () => tokens.token,
      async refreshTokens() {
        try {
          tokens = await client.call('refresh', { body: { refreshToken: tokens.refreshToken } });
        } catch (cause) {
          if (cause instanceof AppFailure && cause.error.code === 'server_unreachable') throw cause;
          throw new AppFailure('unauthorized');
        }
        secrets.write(JSON.stringify({ ...stored, tokens } satisfies StoredSession));
      },
    };
  }

  function close(): void {
    active?.replica.close();
    active = null;
  }

  return {
    info(): SessionInfo {
      if (active) return { signedIn: true, serverUrl: active.serverUrl, user: active.user };
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
        active = activate(stored, openReplica(replicaPathFor(dataDir, stored.serverUrl, stored.user.id), migrationsDir));
        problem = null;
      } catch (cause) {
        problem = cause instanceof AppFailure ? cause.error : { code: 'internal', message: String(cause) };
        logger.error('could not open the replica of the stored session', cause);
      }
      return this.info();
    },

    async signIn(request: { serverUrl: string; username: string; password: string }): Promise<SessionInfo> {
      const client = createContractServerClient(request.serverUrl, { fetch: options.fetch });
      const login = await client.call('login', { body: { username: request.username, password: request.password } });
      const stored: StoredSession = {
        serverUrl: request.serverUrl,
        user: login.user,
        tokens: { token: login.token, refreshToken: login.refreshToken, expiresAt: login.expiresAt },
      };
      const path = replicaPathFor(dataDir, stored.serverUrl, stored.user.id);
      let replica: OpenReplica;
      try {
        replica = openReplica(path, migrationsDir);
      } catch (cause) {
        // A damaged replica holds only synced data, which the server has: keep the file for
        // support and start a fresh one. A newer one is left alone (it is not ours to migrate).
        if (!(cause instanceof AppFailure) || cause.error.code !== 'replica_corrupt') throw cause;
        const aside = setCorruptReplicaAside(path, clock.now());
        logger.warn(`set a damaged replica aside at ${aside}`);
        replica = openReplica(path, migrationsDir);
      }
      close();
      active = activate(stored, replica);
      problem = null;
      secrets.write(JSON.stringify(stored));
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

    close,
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
