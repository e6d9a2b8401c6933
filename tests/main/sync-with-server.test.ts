import { isEditableStatus } from '../../src-shared/rules/contract-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { createSyncEngine } from '../../src-main/core/sync/sync-engine';
import { contractServerTransport } from '../../src-main/core/sync/transport';
import { clientMigrationsDir } from '../../src-main/paths';
import { systemClock } from '../../src-main/core/ports';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { ManualTimer } from './sync-fakes';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

// The engine and its real transport against the contract server on PGlite: edits drain without
// conflicting with each other, and another client's edit turns into a conflict record.

const serverDir = tempDir('contract-desk-server-');
const desktop = tempDir('contract-desk-sync-');
let server: RunningServer;

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 11, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  desktop.cleanup();
});

async function syncClient(name: string, clientId: string) {
  const client = createContractServerClient(server.url);
  let tokens = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  const replica = openReplica(join(desktop.path, `${name}.sqlite`), clientMigrationsDir);
  const outbox = createOutbox(replica, { features: replicaFeatures, clock: systemClock });
  const engine = createSyncEngine({
    outbox, meta: metaReader(replica), writer: replicaWriter(replica, replicaFeatures), clientId, clock: systemClock, timer: new ManualTimer(),
    transport: contractServerTransport({ client, token: () => tokens.token }),
    refreshAuth: async () => {
      tokens = { ...tokens, ...(await client.call('refresh', { body: { refreshToken: tokens.refreshToken } })) };
    },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const query = ledgerContractPageRequestSchema.parse({ pageNum: 1, pageSize: 50, status: null, q: '', sort: { field: 'name', order: 'asc' } });
  const contracts = () => contractReader(replica).page(query).list;
  return { replica, outbox, engine, contracts };
}

describe('sync engine against the contract server', () => {
  it('drains several edits of one contract without conflicts, and a stale edit becomes a conflict to settle', async () => {
    const mine = await syncClient('mine', '0192f000-0000-7000-8000-00000000000a');
    const theirs = await syncClient('theirs', '0192f000-0000-7000-8000-00000000000b');
    try {
      expect(await mine.engine.syncNow()).toMatchObject({ phase: 'idle' });
      await theirs.engine.syncNow();
      // Edits of the document are for contracts still being drafted (or rejected).
      const [first, second] = mine.contracts().filter((c) => isEditableStatus(c.status));
      expect(mine.contracts()).toHaveLength(30);

      mine.outbox.enqueue('contract.update', { id: first!.id, patch: { name: 'A renamed offline' } });
      mine.outbox.enqueue('contract.update', { id: first!.id, patch: { contractNumber: 'OFF-1' } });
      mine.outbox.enqueue('contract.update', { id: second!.id, patch: { contractNumber: 'OFF-2' } });
      expect(await mine.engine.syncNow()).toMatchObject({ phase: 'idle' });
      expect(mine.outbox.status()).toEqual({ queued: 0, oldestQueuedAt: null, problems: [] });
      expect(mine.replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(0);
      const edited = mine.contracts().find((c) => c.id === first!.id);
      expect(edited).toMatchObject({ name: 'A renamed offline', contractNumber: 'OFF-1', version: first!.version + 2 });

      // The other client edits from its older copy: the server refuses to overwrite silently.
      const stale = theirs.outbox.enqueue('contract.update', { id: first!.id, patch: { name: 'Theirs' } });
      await theirs.engine.syncNow();
      const [conflict] = theirs.outbox.status().problems;
      expect(conflict).toMatchObject({ id: stale.id, state: 'conflict', error: { code: 'conflict' }, current: [{ row: { name: 'A renamed offline' } }] });
      expect(theirs.contracts().find((c) => c.id === first!.id)?.name).toBe('A renamed offline');

      theirs.outbox.applyMineAgain(stale.id);
      expect(await theirs.engine.syncNow()).toMatchObject({ phase: 'idle' });
      expect(theirs.outbox.status().problems).toEqual([]);
      await mine.engine.syncNow();
      expect(mine.contracts().find((c) => c.id === first!.id)).toMatchObject({ name: 'Theirs', contractNumber: 'OFF-1' });
    } finally {
      mine.replica.close();
      theirs.replica.close();
    }
  });
});
