import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { syncProtocolVersion, syncSchemaVersion } from '../src-shared/api/sync';
import { authenticate, login, logout, refresh, type SessionUser } from './auth/service';
import { contractStatistics, listContracts } from './contracts/repository';
import { counterpartiesHandlers } from './counterparties/handlers';
import { directoryHandlers } from './directory/handlers';
import { organisationHandlers } from './organisation/handlers';
import { devicesHandlers } from './devices/handlers';
import { auditHandlers } from './audit/handlers';
import type { ServerDb } from './db/database';
import { registerFileRoutes, resolveFileStoreOptions, type FileStoreOptions } from './files/routes';
import { intellectualPropertyHandlers } from './intellectual-property/handlers';
import { lawFirmsHandlers } from './law-firms/handlers';
import { projectsHandlers } from './projects/handlers';
import { scoringHandlers } from './scoring/handlers';
import { installCompression, serverCodings } from './http/compression';
import { installErrorHandling } from './http/errors';
import { installJsonBodyParser } from './http/json-body';
import { installResponseHeaders } from './http/response-headers';
import { openApiDocument, openApiPath } from './http/openapi';
import { ledgerHandlers } from './ledger/handlers';
import { registerEndpoints, type Handlers } from './http/routes';
import { numberingHandlers } from './numbering/handlers';
import { contractFormsHandlers } from './contract-forms/handlers';
import { templateDocuments } from './contract-document/template-document';
import { performanceHandlers } from './performance/handlers';
import { defaultSyncHistory, pullChanges, type SyncHistoryOptions } from './sync/pull';
import { pushMutations } from './sync/push';
import { registerFeedStream } from './sync/feed-stream';
import { preparedImage, registerImageDownload } from './sync/images';
import { ensureUserScenes } from './ledger/scenes';
import { packPullResponse } from '../src-shared/sync/feed-codec';

export interface ContractServerOptions {
  /** Log every request (default off). Unexpected errors are logged either way. */
  logger?: boolean;
  /** The server's clock; tests move it to expire tokens and rate-limit windows. */
  now?: () => Date;
  /** How long deletes stay in the change feed (default 90 days of tombstones). */
  syncHistory?: SyncHistoryOptions;
  /** Where uploads go and how large they may be (default: CONTRACT_SERVER_FILES_DIR or .data/server/files, 20 MB). */
  files?: Partial<FileStoreOptions>;
  /**
   * The credit platform's monitoring page of a counterparty, with {id}, {name} and {idNumber}
   * placeholders (default: CONTRACT_SERVER_CREDIT_MONITORING_URL; unset: the app's external detail).
   */
  creditMonitoringUrl?: string;
}

/** The contract server on an open database, not yet listening (tests drive it with `inject`). */
export function buildContractServer(db: ServerDb, options: ContractServerOptions = {}): FastifyInstance {
  const now = options.now ?? (() => new Date());
  const syncHistory = options.syncHistory ?? defaultSyncHistory;
  const monitoringUrlTemplate = options.creditMonitoringUrl ?? (process.env.CONTRACT_SERVER_CREDIT_MONITORING_URL || undefined);
  if (monitoringUrlTemplate !== undefined && !/^https?:\/\/[^/\s]+/.test(monitoringUrlTemplate)) {
    throw new Error(`the credit monitoring URL must be an http(s) address, got "${monitoringUrlTemplate.slice(0, 200)}"`);
  }
  const files = resolveFileStoreOptions(options.files);
  const documents = templateDocuments(files.dir);
  const app = Fastify({ logger: options.logger ? true : { level: 'error' } });
  installErrorHandling(app);
  installJsonBodyParser(app);
  installResponseHeaders(app);
  installCompression(app);

  // Built on the server's database once, and per request on the transaction of a write sent with
  // an Idempotency-Key (src-server/http/routes.ts): `db` here is whichever of the two.
  const scenesBeforeFirstPullOn = (db: ServerDb) => async (user: Parameters<typeof ensureUserScenes>[1], cursor: string) => {
    if (cursor === '0') await ensureUserScenes(db, user);
  };
  const handlersOn = (db: ServerDb): Handlers => {
    // A desktop may never have read the ledger over REST: its system scenes must exist to sync.
    const scenesBeforeFirstPull = scenesBeforeFirstPullOn(db);
    return {
      health: async () => {
        await db.execute(sql`select 1`);
        return { status: 'up', protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };
      },
      login: ({ body, clientAddress }) => login(db, body, clientAddress, now()),
      refresh: ({ body }) => refresh(db, body.refreshToken, now()),
      logout: async ({ user }) => {
        await logout(db, user.sessionId, now());
        return { signedOut: true };
      },
      me: async ({ user: { sessionId: _session, deviceId: _device, ...user } }) => user,
      contractList: ({ user, query }) => listContracts(db, user, query),
      contractStatistics: ({ user }) => contractStatistics(db, user),
      syncPull: async ({ user, query }) => {
        await scenesBeforeFirstPull(user, query.cursor);
        return pullChanges(db, user, query, now(), syncHistory);
      },
      syncFeed: async ({ user, query }) => {
        await scenesBeforeFirstPull(user, query.cursor);
        return packPullResponse(await pullChanges(db, user, query, now(), syncHistory));
      },
      syncImage: async ({ user, query }) => ({ image: await preparedImage(db, user, query) }),
      syncPush: ({ user, body }) => pushMutations(db, user, body, now()),
      ...numberingHandlers(db, now),
      ...contractFormsHandlers(db, now, documents),
      ...performanceHandlers(db, now),
      ...counterpartiesHandlers(db, now, monitoringUrlTemplate),
      ...lawFirmsHandlers(db, now),
      ...projectsHandlers(db, now),
      ...scoringHandlers(db, now),
      ...intellectualPropertyHandlers(db, now),
      ...ledgerHandlers(db, now),
      ...directoryHandlers(db, now),
      ...organisationHandlers(db, now),
      ...devicesHandlers(db, now),
      ...auditHandlers(db, now),
    };
  };
  // The routes go in once the compression plugin has loaded, so its hooks wrap each of them.
  void app.register(async (api) => {
    registerEndpoints(api, db, handlersOn, (authorization) => authenticate(db, authorization, now()), now);
    registerFileRoutes(api, db, now, files);
    registerFeedStream<SessionUser>(api, serverCodings, {
      db,
      now,
      history: syncHistory,
      authenticate: (authorization) => authenticate(db, authorization, now()),
      beforeFirstPull: scenesBeforeFirstPullOn(db),
      log: app.log,
    });
    registerImageDownload<SessionUser>(api, { db, authenticate: (authorization) => authenticate(db, authorization, now()) });
    // Built once on first request: it only changes with the code.
    let document: ReturnType<typeof openApiDocument> | undefined;
    api.get(openApiPath, async () => (document ??= openApiDocument()));
  });
  return app;
}
