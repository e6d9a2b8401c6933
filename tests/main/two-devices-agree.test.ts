import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { isEditableStatus } from '../../src-shared/rules/contract-status';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

// Issue 30 item 6, the two-device divergence: two devices of one user, both offline; one renames
// a contract, the other changes its signing date. The contract's form holds the signing date, so
// a signing date set beside the form (contract.update's signDate) was stored in the column while
// the form kept none, and the next write of the form derived the column from the form again:
// the edit was reported applied and then lost, and the devices showed a date the server's form did
// not hold. Now the device refuses that edit at once, the date is changed in the form, and after
// both sync the server and both devices hold the same contract.

const serverDir = tempDir('two-devices-server-');
let server: RunningServer;
let proxy: FaultProxy;

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 11, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
});

afterAll(async () => {
  await proxy?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

describe('two devices of one user, both offline', () => {
  const dirs = [tempDir('two-devices-a-'), tempDir('two-devices-b-')];
  let first: Core;
  let second: Core;

  beforeAll(async () => {
    first = testCore(dirs[0]!.path, { syncSoonMs: 20, syncBackoffMs: 50 });
    second = testCore(dirs[1]!.path, { syncSoonMs: 20, syncBackoffMs: 50 });
    for (const core of [first, second]) {
      await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
      await settledSync(core);
      // The drafting catalogue holds the contracts' forms: what the device checks edits against.
      await waitFor(async () => ((await call(core, 'drafting.catalogue', {})).refreshedAt === null ? undefined : true));
    }
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    for (const dir of dirs) dir.cleanup();
  });

  /** Syncs a device until nothing of it is queued and a pull has ended since. */
  async function drained(core: Core) {
    await call(core, 'sync.now', {});
    return waitFor(async () => {
      const status = await call(core, 'sync.status', {});
      return status.queued === 0 && status.phase === 'idle' && status.error === null ? status : undefined;
    }, 30_000);
  }

  it('one renames, the other changes the signing date: both end as the server, the date in the form and the ledger alike', async () => {
    const page = await call(first, 'ledger.contractPage', { pageNum: 1, pageSize: 50 });
    const target = page.list.find((contract) => isEditableStatus(contract.status) && contract.templateName !== null)!;
    const before = await call(second, 'contract.detail', { id: target.id });
    const signDate = before.signDate === '2026-12-01' ? '2026-12-02' : '2026-12-01';

    proxy.faults.refuse = true;
    proxy.cutAll();
    await call(first, 'contract.update', { id: target.id, patch: { name: 'Renamed on the first device' } });
    // Set beside the form that holds it, the date would last only until the form's next write: refused at once.
    expect(await second.invoke('contract.update', { id: target.id, patch: { signDate } })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', issues: [{ path: 'patch.signDate' }], reason: { key: 'termInForm', params: { term: 'signDate' } } },
    });
    expect((await call(second, 'sync.status', {})).queued).toBe(0);
    await call(second, 'contract.saveForm', { id: target.id, name: before.name, contractTypeId: before.contractTypeId, formValues: { signDate } });
    expect(await call(second, 'contract.detail', { id: target.id })).toMatchObject({ signDate, formValues: { signDate } });

    proxy.faults.refuse = false;
    // The rename reaches the server first: the form's save, based on the older version, merges with it.
    await drained(first);
    await drained(second);
    await drained(first);

    const { token } = await createContractServerClient(server.url).call('login', { body: { username: 'admin', password: 'admin123' } });
    const rest = createContractServerClient(server.url);
    const onServer = await rest.call('contractDetail', { token, params: { id: target.id } });
    expect(onServer).toMatchObject({ name: 'Renamed on the first device', formValues: { signDate } });
    const listed = (await rest.call('contractList', { token, query: { q: 'Renamed on the first device', pageNum: 1, pageSize: 10 } })).list.find((c) => c.id === target.id);
    expect(listed).toMatchObject({ signDate, version: onServer.version });
    for (const core of [first, second]) {
      const shown = await call(core, 'contract.detail', { id: target.id });
      expect(shown).toMatchObject({ name: onServer.name, signDate, version: onServer.version, formValues: onServer.formValues, pending: false });
      expect((await call(core, 'sync.status', {})).problems).toEqual([]);
    }
  });
});
