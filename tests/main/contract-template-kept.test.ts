import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { contractTemplateKind } from '../../src-main/core/contracts/drafting-store';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { ContractStatus } from '../../src-shared/domain/enums';
import { openDatabase, seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { contracts, templates } from '../../src-server/db/schema';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { openKeptReplica } from '../support/replica-file';
import { tempDir } from '../support/temp';

// Issue 30 item 4: the contract page never depends on the drafting catalogue. A contract whose
// template the catalogue does not offer (here: one sent back to drafting after contracts were made
// from it) still has its form: kept after the sync that brought the contract, read offline, and
// fetched on demand when this device never kept it (a first sync still under way).

const serverDir = tempDir('contract-desk-server-');
const desktop = tempDir('contract-desk-kept-template-');
let server: RunningServer | null = null;
let port = 0;
let core: Core;
/** A template some contracts were drafted with, no longer in the catalogue. */
let withdrawn = '';

async function startServer() {
  server = await startContractServer({ port, dataDir: serverDir.path });
  port = Number(new URL(server.url).port);
}

beforeAll(async () => {
  await seedDemoData({ contracts: 12, seed: 23, dataDir: serverDir.path });
  const database = await openDatabase({ dataDir: serverDir.path });
  try {
    const [used] = await database.db.select({ templateId: contracts.templateId }).from(contracts).where(isNotNull(contracts.templateId)).limit(1);
    withdrawn = used!.templateId!;
    await database.db.update(templates).set({ status: ContractStatus.Drafting }).where(eq(templates.id, withdrawn));
  } finally {
    await database.close();
  }
  await startServer();
  core = testCore(desktop.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 });
}, 120_000);

afterAll(async () => {
  await core?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  desktop.cleanup();
});

describe("a contract's template outside the catalogue", () => {
  let replicaPath = '';

  it('is kept after the sync that brought its contracts, and read offline', async () => {
    const requests = vi.spyOn(globalThis, 'fetch');
    const session = await call(core, 'session.signIn', { serverUrl: server!.url, username: 'admin', password: 'admin123' });
    if (!session.signedIn) throw new Error('not signed in');
    replicaPath = replicaPathFor(desktop.path, server!.url, session.user.id);
    await settledSync(core);
    const catalogue = await waitFor(async () => {
      const kept = await call(core, 'drafting.catalogue', {});
      return kept.refreshedAt === null ? undefined : kept;
    });
    expect(catalogue.templates.map((t) => t.id)).not.toContain(withdrawn);
    // The catalogue's refresh is followed by keeping the templates its contracts need.
    await waitFor(() => (requests.mock.calls.some(([url]) => String(url).endsWith(`/templates/${withdrawn}`)) ? true : undefined));
    await waitFor(() => {
      const replica = openKeptReplica(replicaPath, { readonly: true });
      try {
        return replica.prepare('select 1 from cached_reads where kind = ? and key = ?').get(contractTemplateKind, withdrawn) ? true : undefined;
      } finally {
        replica.close();
      }
    });
    requests.mockRestore();

    await server!.close();
    server = null;
    const template = await call(core, 'drafting.template', { id: withdrawn });
    expect(template.id).toBe(withdrawn);
    expect(template.fields.length).toBeGreaterThan(0);
  });

  it('offline and never kept: says so in the reason the page shows, not "not found"', async () => {
    const replica = openKeptReplica(replicaPath);
    replica.prepare('delete from cached_reads where kind = ?').run(contractTemplateKind);
    replica.close();
    const answer = await core.invoke('drafting.template', { id: withdrawn });
    expect(answer).toMatchObject({ ok: false, error: { code: 'offline', reason: { key: 'templateNotKept' } } });
  });

  it('online and never kept (a first sync under way): fetched at once and kept', async () => {
    await startServer();
    await waitFor(async () => ((await core.invoke('drafting.template', { id: withdrawn })).ok ? true : undefined));
    await server!.close();
    server = null;
    expect((await call(core, 'drafting.template', { id: withdrawn })).id).toBe(withdrawn);
  });
});
