import { readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildContractServer } from './app';
import { defaultDataDir, openDatabase, type DatabaseOptions } from './db/database';
import { fromDataCache } from './db/data-cache';
import { resolveFileStoreOptions } from './files/routes';
import { ensureUserScenes } from './ledger/scenes';
import { maintenanceIntervalMs, startMaintenance } from './maintenance';
import { defaultSyncHistory } from './sync/pull';
import { startSnapshotUpkeep } from './sync/snapshots';
import { seedDatabase, type SeedSummary } from './seed/write';

// The contract server's programmatic API, used by the CLIs, the tests, the bench and `npm start`.

export { buildContractServer, type ContractServerOptions } from './app';
export { openDatabase, defaultDataDir, type DatabaseHandle, type DatabaseOptions, type ServerDb } from './db/database';
export { demoUsers, otherUsersPassword, type DemoUser } from './seed/catalogue';
export { seedDatabase, type SeedSummary } from './seed/write';

export interface StartOptions extends DatabaseOptions {
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Log every request (default off). Unexpected errors are logged either way. */
  logger?: boolean;
  /**
   * Prepare each user's first sync in the background (src-server/sync/snapshots.ts). On in the
   * server's CLI; off by default here, where tests start servers whose users never sync twice.
   */
  syncSnapshots?: boolean;
}

export interface RunningServer {
  url: string;
  /** Where the data lives, e.g. "PGlite at /abs/.data/server". */
  database: string;
  /** Stops accepting requests, lets running ones finish, then closes the database. */
  close(): Promise<void>;
}

export const defaultPort = 8787;
export const defaultHost = '127.0.0.1';

/** Opens (and migrates) the database, then listens. PGlite in `dataDir` unless `databaseUrl` is given. */
export async function startContractServer(options: StartOptions = {}): Promise<RunningServer> {
  const database = await openDatabase(options);
  // Uploads live beside the PGlite data unless CONTRACT_SERVER_FILES_DIR says otherwise.
  const files = resolveFileStoreOptions({}, options.dataDir ?? defaultDataDir);
  const app = buildContractServer(database.db, { logger: options.logger, files });
  try {
    await app.listen({ port: options.port ?? defaultPort, host: options.host ?? defaultHost });
  } catch (error) {
    await database.close();
    throw error;
  }
  const warn = (message: string) => console.warn(message);
  const stopMaintenance = startMaintenance(database.db, warn, maintenanceIntervalMs, files.dir);
  const stopSnapshots = options.syncSnapshots
    ? startSnapshotUpkeep(database.db, { now: () => new Date(), history: defaultSyncHistory, beforeFirstPull: (viewer) => ensureUserScenes(database.db, viewer), warn, images: {} })
    : async () => undefined;
  const { address, family, port } = app.server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    database: database.description,
    close: async () => {
      await app.close();
      await stopSnapshots();
      await stopMaintenance();
      await database.close();
    },
  };
}

/**
 * Writes the deterministic demo data (the same `seed` gives the same rows) into the database of
 * `dataDir` or `databaseUrl`, replacing whatever was there. Resolves to the number of rows written.
 * A PGlite data directory must not be open in a running server at the same time.
 */
export async function seedDemoData(options: DatabaseOptions & { contracts: number; seed: number }): Promise<SeedSummary> {
  // Seeded files go under the data directory unless the environment sends them elsewhere.
  if (!options.databaseUrl && !process.env.CONTRACT_SERVER_FILES_DIR) {
    const dir = path.resolve(options.dataDir ?? defaultDataDir);
    const summaryFile = path.join(dir, seedSummaryFile);
    const copied = await fromDataCache(`seed-${options.contracts}-${options.seed}`, dir, async (scratch) => {
      const summary = await seedInto({ ...options, dataDir: scratch });
      await writeFile(path.join(scratch, seedSummaryFile), JSON.stringify(summary));
    });
    if (copied) {
      const summary = JSON.parse(await readFile(summaryFile, 'utf8')) as SeedSummary;
      await rm(summaryFile);
      return summary;
    }
  }
  return seedInto(options);
}

/** Kept in a cached seed's copy only, for the summary a seed resolves to. */
const seedSummaryFile = 'seed-summary.json';

async function seedInto(options: DatabaseOptions & { contracts: number; seed: number }): Promise<SeedSummary> {
  const database = await openDatabase(options);
  try {
    // The seeded templates' documents go where this data's server keeps uploads.
    const filesDir = resolveFileStoreOptions({}, options.dataDir ?? defaultDataDir).dir;
    return await seedDatabase(database.db, { ...options, filesDir });
  } finally {
    await database.close();
  }
}
