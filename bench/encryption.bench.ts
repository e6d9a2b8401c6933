import { join } from 'node:path';
import { replicaWriter } from '../src-main/core/data/replica-sync';
import { openReplica } from '../src-main/core/data/replica';
import { replicaFeatures } from '../src-main/core/features';
import { fileSecretStore } from '../src-main/core/files';
import { replicaPathFor } from '../src-main/core/session/session-service';
import { createReplicaKey, derivedKey, fileKeyWrapper } from '../src-main/core/vault/replica-keys';
import { clientMigrationsDir } from '../src-main/paths';
import type { SyncChange } from '../src-shared/api/sync';
import type { Core } from '../src-main/core/core';
import { contractStatuses, taskTypes } from '../src-shared/domain/enums';
import { contractId, makeContract, makeTask } from '../tests/support/contracts';
import { tempDir } from '../tests/support/temp';
import { sceneRequest } from './ledger-scenes.bench';
import { figure, load, seededRandom, summarize } from './stats';
import { benchCore } from './support';

// What encryption at rest costs (issue 32: at most 15 % on the ledger page, scene search and first
// sync), measured in one run on two replicas of the same data, one plain and one encrypted as the
// app keeps it: the first sync's writes into each (the pulled pages applied and the sync ended),
// then the ledger page and a scene page through the real core's IPC handlers, the two cores timed
// in turn, step by step, so a burst of load on the shared machine falls on both alike.

const contractCount = 50_000;
const taskCount = 200_000;
const iterations = 1000;
const serverUrl = 'http://127.0.0.1:9';
const user = { id: 'bench-user', username: 'bench', displayName: 'Bench', role: 'admin' as const, departmentId: null, departmentName: null };

function pulledPages(): SyncChange[][] {
  const random = seededRandom(32);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const pages: SyncChange[][] = [];
  for (let start = 0; start < contractCount; start += 1000) {
    pages.push(Array.from({ length: 1000 }, (_, k) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(start + k, { status: pick(contractStatuses) }) })));
  }
  for (let start = 0; start < taskCount; start += 5000) {
    pages.push(
      Array.from({ length: 5000 }, (_, k) => ({
        entity: 'performanceTask' as const,
        op: 'upsert' as const,
        row: makeTask(start + k, {
          contractId: contractId((start + k) % contractCount),
          type: pick(taskTypes),
          state: (1 + Math.floor(random() * 4)) as 1 | 2 | 3 | 4,
          expirationTime: new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 4 * 365) * 86_400_000).toISOString().slice(0, 10),
        }),
      })),
    );
  }
  return pages;
}

/** Applies the pages as a first sync does and ends it; seconds. */
function firstSyncInto(dataDir: string, pages: SyncChange[][], encrypted: boolean): number {
  const path = replicaPathFor(dataDir, serverUrl, user.id);
  const key = encrypted ? derivedKey(createReplicaKey(path, fileKeyWrapper), 'database') : undefined;
  const start = performance.now();
  const replica = openReplica(path, clientMigrationsDir, { key });
  const writer = replicaWriter(replica, replicaFeatures);
  let cursor = 0;
  for (const page of pages) writer.applyPulledChanges(page, String((cursor += page.length)), new Date().toISOString());
  writer.finishPull();
  const seconds = (performance.now() - start) / 1000;
  replica.close();
  fileSecretStore(join(dataDir, 'session.json')).write(JSON.stringify({ serverUrl, user, tokens: { token: 't', refreshToken: 'r', expiresAt: new Date().toISOString() } }));
  return seconds;
}

/** Times `call` on each core in turn, step by step; milliseconds per call, per core. */
async function timeInTurn(cores: readonly Core[], call: (core: Core, i: number) => Promise<void>) {
  const samples = cores.map(() => [] as number[]);
  for (let i = -100; i < iterations; i += 1) {
    for (const [n, core] of cores.entries()) {
      const start = process.hrtime.bigint();
      await call(core, Math.max(0, i));
      if (i >= 0) samples[n]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return samples.map(summarize);
}

export async function benchEncryption(): Promise<void> {
  const pages = pulledPages();
  const plainDir = tempDir('contract-desk-bench-plain-');
  const encryptedDir = tempDir('contract-desk-bench-encrypted-');
  const firstSync = { plain: firstSyncInto(plainDir.path, pages, false), encrypted: firstSyncInto(encryptedDir.path, pages, true) };
  load('encryption_first_sync');
  figure('encryption_first_sync_250k_rows_plain', firstSync.plain, 's');
  figure('encryption_first_sync_250k_rows_encrypted', firstSync.encrypted, 's');
  figure('encryption_first_sync_cost', (firstSync.encrypted / firstSync.plain - 1) * 100, '%', 1);

  const plain = benchCore(plainDir.path, true);
  const encrypted = benchCore(encryptedDir.path, true, { keys: fileKeyWrapper });
  const cores = [plain, encrypted] as const;
  const ledger = await timeInTurn(cores, async (core, i) => {
    const request = { status: contractStatuses[i % contractStatuses.length]!, pageNum: 1 + (i % 10), pageSize: 20 as const };
    const [page, counts] = await Promise.all([core.invoke('ledger.contractPage', request), core.invoke('ledger.contractStatistics', {})]);
    if (!page.ok || !counts.ok) throw new Error(`ledger call failed: ${JSON.stringify(page.ok ? counts : page)}`);
  });
  const titleIDs = ['taskType', 'taskState', 'expirationTime', 'receivableAmount', 'contractName', 'contractStatus'];
  const scenes = await Promise.all(
    cores.map(async (core) => {
      const created = await core.invoke('scene.create', { name: 'Due', titleIDs, filterIDs: ['taskType', 'contractStatus', 'expirationTime'] });
      if (!created.ok) throw new Error(`scene.create failed: ${JSON.stringify(created.error)}`);
      return (created.data as { id: string }).id;
    }),
  );
  const scene = await timeInTurn(cores, async (core, i) => {
    const page = await core.invoke('ledger.search', sceneRequest(i, scenes[core === plain ? 0 : 1]!));
    if (!page.ok) throw new Error(`scene page failed: ${JSON.stringify(page.error)}`);
  });
  await Promise.all(cores.map((core) => core.close()));
  plainDir.cleanup();
  encryptedDir.cleanup();

  load('encryption_reads');
  for (const [name, [onPlain, onEncrypted]] of [['ledger_page_and_counts', ledger], ['scene_page', scene]] as const) {
    figure(`encryption_${name}_plain_p50`, onPlain!.p50, 'ms');
    figure(`encryption_${name}_encrypted_p50`, onEncrypted!.p50, 'ms');
    figure(`encryption_${name}_plain_p95`, onPlain!.p95, 'ms');
    figure(`encryption_${name}_encrypted_p95`, onEncrypted!.p95, 'ms');
    figure(`encryption_${name}_p50_cost`, (onEncrypted!.p50 / onPlain!.p50 - 1) * 100, '%', 1);
  }
  figure('encryption_cost_target', 15, '%');
}
