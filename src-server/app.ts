import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { syncProtocolVersion, syncSchemaVersion } from '../src-shared/api/sync';
import { authenticate, login, logout, refresh } from './auth/service';
import { contractStatistics, listContracts } from './contracts/repository';
import type { ServerDb } from './db/database';
import { installErrorHandling } from './http/errors';
import { ledgerHandlers } from './ledger/handlers';
import { registerEndpoints, type Handlers } from './http/routes';
import { defaultSyncHistory, pullChanges, type SyncHistoryOptions } from './sync/pull';
import { pushMutations } from './sync/push';

export interface ContractServerOptions {
  /** Log every request (default off). Unexpected errors are logged either way. */
  logger?: boolean;
  /** The server's clock; tests move it to expire tokens and rate-limit windows. */
  now?: () => Date;
  /** How long deletes stay in the change feed (default 90 days of tombstones). */
  syncHistory?: SyncHistoryOptions;
}

/** The contract server on an open database, not yet listening (tests drive it with `inject`). */
export function buildContractServer(db: ServerDb, options: ContractServerOptions = {}): FastifyInstance {
  const now = options.now ?? (() => new Date());
  const syncHistory = options.syncHistory ?? defaultSyncHistory;
  const app = Fastify({ logger: options.logger ? true : { level: 'error' } });
  installErrorHandling(app);

  const handlers: Handlers = {
    health: async () => {
      await db.execute(sql`select 1`);
      return { status: 'up', protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };
    },
    login: ({ body }) => login(db, body, now()),
    refresh: ({ body }) => refresh(db, body.refreshToken, now()),
    logout: async ({ user }) => {
      await logout(db, user.sessionId, now());
      return { signedOut: true };
    },
    me: async ({ user: { sessionId: _session, ...user } }) => user,
    contractList: ({ user, query }) => listContracts(db, user, query),
    contractStatistics: ({ user }) => contractStatistics(db, user),
    syncPull: ({ user, query }) => pullChanges(db, user, query, now(), syncHistory),
    syncPush: ({ user, body }) => pushMutations(db, user, body),
    ...ledgerHandlers(db, now),
  };
  registerEndpoints(app, handlers, (authorization) => authenticate(db, authorization, now()));
  return app;
}
