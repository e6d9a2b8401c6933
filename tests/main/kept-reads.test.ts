import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { seedDemoData } from '../../src-server';
import { stoppableServer } from '../support/stoppable-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { lawFirmPage } from '../../src-shared/form/parties';

// Issue 30, item 3 against the real contract server: the reads a drafter meets answer offline
// from what this device keeps, each with the time it is "as of"; online they are the server's.

const serverDir = tempDir('contract-desk-server-');
const aliceDir = tempDir('contract-desk-alice-');
const server = stoppableServer(serverDir.path);
let alice: Core;

/** The server is back (a test before stopped it): wait until the core reaches it again. */
const online = (read: () => Promise<{ offline: boolean }>) => waitFor(async () => ((await read().catch(() => ({ offline: true }))).offline ? undefined : true));

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 30, dataDir: serverDir.path });
  await server.start();
  alice = testCore(aliceDir.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 });
  await call(alice, 'session.signIn', { serverUrl: server.url(), username: 'alice', password: 'alice123' });
  await settledSync(alice);
  // The drafting catalogue, fetched once the first sync ended, as a drafter has it before the train.
  await waitFor(async () => ((await call(alice, 'drafting.catalogue', {})).refreshedAt === null ? undefined : true));
}, 300_000);

afterEach(async () => {
  if (!server.running()) await server.start();
});

afterAll(async () => {
  await alice?.close();
  await server.stop().catch(() => undefined);
  for (const dir of [serverDir, aliceDir]) dir.cleanup();
});

describe('kept reads of a drafter, offline', () => {
  it('checks duplicate numbers against the replica offline, as of the last sync, as the server does online', async () => {
    const [seeded] = (await call(alice, 'ledger.contractPage', { pageNum: 1, pageSize: 5 })).list;
    const number = seeded!.contractNumber!;
    const queries = [{ contractNumber: number }, { contractNumber: number, excludeId: seeded!.id }, { checkAll: 'true' as const }, { contractNumber: 'NO-SUCH-NUMBER' }];
    await online(() => call(alice, 'drafting.checkDuplicate', { contractNumber: number }));
    const fromServer = [];
    for (const query of queries) fromServer.push(await call(alice, 'drafting.checkDuplicate', query));
    expect(fromServer.map((answer) => answer.offline)).toEqual([false, false, false, false]);
    expect(fromServer[0]!.value.list).toEqual([{ contractNumber: number, contractList: [{ id: seeded!.id, name: seeded!.name }] }]);

    await server.stop();
    const { lastSyncAt } = await call(alice, 'sync.status', {});
    for (const [index, query] of queries.entries()) {
      expect(await call(alice, 'drafting.checkDuplicate', query)).toEqual({ value: fromServer[index]!.value, asOf: lastSyncAt, offline: true });
    }
    // A draft made here offline counts: its number is this device's too.
    const drafted = await call(alice, 'contract.create', { name: 'train draft', templateId: null, contractTypeId: null, contractNumber: 'TRAIN-0001', formValues: {} });
    expect((await call(alice, 'drafting.checkDuplicate', { contractNumber: 'TRAIN-0001' })).value.list).toEqual([
      { contractNumber: 'TRAIN-0001', contractList: [{ id: drafted.id, name: 'train draft' }] },
    ]);
    expect((await call(alice, 'drafting.checkDuplicate', { contractNumber: 'TRAIN-0001', excludeId: drafted.id })).value.list).toEqual([]);
  });

  it('offers the projects offline though the picker was never opened: kept ahead at sign-in', async () => {
    await server.stop();
    const kept = await call(alice, 'cached.read', { endpoint: 'projectListAll' });
    expect(kept.offline).toBe(true);
    expect((kept.value as { list: unknown[] }).list.length).toBeGreaterThan(0);
    await server.start();
    await online(() => call(alice, 'cached.read', { endpoint: 'projectListAll' }));
    expect((await call(alice, 'cached.read', { endpoint: 'projectListAll' })).value).toEqual(kept.value);
  });

  it("offers the law firms offline though the agent field was never opened, under the field's own query", async () => {
    await server.stop();
    const kept = await call(alice, 'cached.read', { endpoint: 'lawFirmList', query: { ...lawFirmPage } });
    expect(kept.offline).toBe(true);
    expect((kept.value as { list: unknown[] }).list.length).toBeGreaterThan(0);
  });

  it('opens a party detail read once online from the kept copy offline, as of that read', async () => {
    const [party] = (await call(alice, 'drafting.searchParties', { keyword: '', partyType: 2, pageNum: 1, pageSize: 1 })).list;
    const read = { endpoint: 'counterpartExternalDetail' as const, params: { id: party!.id }, query: { refresh: true } };
    await online(() => call(alice, 'cached.read', read));
    const fromServer = await call(alice, 'cached.read', read);
    expect(fromServer).toMatchObject({ offline: false, value: { id: party!.id, name: party!.name } });
    await server.stop();
    expect(await call(alice, 'cached.read', read)).toEqual({ ...fromServer, offline: true });
  });

  it('scores offline: the detail as of its read, a score queued and shown when reopened, applied once when the server is back', async () => {
    await online(() => call(alice, 'cached.read', { endpoint: 'projectListAll' }));
    // A contract of alice's with an outer party (the others refuse to be scored).
    const { list } = await call(alice, 'ledger.contractPage', { pageNum: 1, pageSize: 50 });
    let scored: Awaited<ReturnType<typeof scoreDetail>> | undefined;
    const scoreDetail = (contractId: string) => call(alice, 'scoring.detail', { contractId });
    for (const contract of list) {
      scored = await scoreDetail(contract.id).catch(() => undefined);
      if (scored) break;
    }
    expect(scored).toMatchObject({ offline: false, queued: false });
    const { contractId, version } = scored!.value;
    const criteria = scored!.value.resultItems.flatMap((group) => group.children);
    const scores = (score: (maxScore: number) => number) => scored!.value.resultItems.map((group) => ({ id: group.id, children: group.children.map((c) => ({ id: c.id, actualScore: score(c.maxScore) })) }));

    await server.stop();
    expect(await scoreDetail(contractId)).toEqual({ ...scored, offline: true });
    // Refused at once, as the server would: the same rules against the criteria as read.
    await expect(call(alice, 'scoring.save', { contractId, body: { comment: '', resultItems: scores((max) => max + 1), ...(version !== null && { version }) } })).rejects.toThrow(/score cannot be greater than full score/);
    const body = { comment: 'scored on the train', resultItems: scores((max) => max - 1), ...(version !== null && { version }) };
    expect(await call(alice, 'scoring.save', { contractId, body })).toEqual({ queued: true });
    expect((await call(alice, 'sync.status', {})).queued).toBe(1);

    // Reopened offline: the user's own scores, waiting, based on the version they lead to.
    const reopened = await scoreDetail(contractId);
    const total = criteria.reduce((sum, c) => sum + c.maxScore - 1, 0);
    expect(reopened).toMatchObject({ offline: true, queued: true, value: { comment: 'scored on the train', totalScore: total, version: (version ?? 0) + 1 } });
    expect(reopened.value.resultItems.flatMap((group) => group.children).map((c) => c.actualScore)).toEqual(criteria.map((c) => c.maxScore - 1));

    await server.start();
    // Applied once by the server: its detail holds the score at the next version, and nothing waits any more.
    const applied = await waitFor(async () => {
      const answer = await scoreDetail(contractId).catch(() => undefined);
      return answer && !answer.offline && !answer.queued ? answer : undefined;
    }, 60_000);
    expect(applied.value).toMatchObject({ comment: 'scored on the train', totalScore: total, version: (version ?? 0) + 1 });
    expect(applied.value.resultItems).toEqual(reopened.value.resultItems);
    expect(await call(alice, 'sync.status', {})).toMatchObject({ queued: 0, problems: [] });

    // Scored elsewhere meanwhile (its base is stale): the server refuses it at apply time, and the sync panel shows it.
    await server.stop();
    const stale = { comment: 'based on an old read', resultItems: scores(() => 0), version: (version ?? 0) + 5 };
    expect(await call(alice, 'scoring.save', { contractId, body: stale })).toEqual({ queued: true });
    await server.start();
    const [problem] = await waitFor(async () => {
      const { problems } = await call(alice, 'sync.status', {});
      return problems.length > 0 ? problems : undefined;
    }, 60_000);
    expect(problem).toMatchObject({ name: 'contract.score', state: 'rejected', entity: 'contract', rowId: contractId, changes: { score: 0, scoreComment: 'based on an old read' }, error: { code: 'conflict' } });
    // No longer waiting: the dialog shows the server's score again.
    expect(await scoreDetail(contractId)).toMatchObject({ queued: false, value: { comment: 'scored on the train' } });
  });

  it('scores a contract drafted offline: its party and the criteria as last read, queued behind the draft, applied once it has reached the server', async () => {
    await online(() => call(alice, 'cached.read', { endpoint: 'projectListAll' }));
    const catalogue = await call(alice, 'drafting.catalogue', {});
    const template = await call(alice, 'drafting.template', { id: catalogue.templates.find((t) => t.name.includes('采购'))!.id });
    // The criteria as read with a synced contract's score (the organisation's, one set for every contract).
    const { list } = await call(alice, 'ledger.contractPage', { pageNum: 1, pageSize: 50 });
    let read: Awaited<ReturnType<typeof detailOf>> | undefined;
    const detailOf = (contractId: string) => call(alice, 'scoring.detail', { contractId });
    for (const contract of list) {
      read = await detailOf(contract.id).catch(() => undefined);
      if (read) break;
    }
    await server.stop();
    const [party] = (await call(alice, 'drafting.searchParties', { keyword: '', partyType: 2, pageNum: 1, pageSize: 10 })).list;
    const drafted = await call(alice, 'contract.create', {
      name: 'scored on the train', templateId: template.id, contractTypeId: null, contractNumber: null,
      formValues: { contractName: 'scored on the train', contractType: template.contractTypeId, counterparty: [{ id: party!.id, name: party!.name }] },
    });
    const local = await detailOf(drafted.id);
    expect(local).toMatchObject({ offline: true, queued: false, asOf: read!.asOf, value: { contractId: drafted.id, counterpartyId: party!.id, counterpartyName: party!.name, version: null, totalScore: null } });
    expect(local.value.resultItems.map((group) => group.children.map((c) => c.id))).toEqual(read!.value.resultItems.map((group) => group.children.map((c) => c.id)));
    const resultItems = local.value.resultItems.map((group) => ({ id: group.id, children: group.children.map((c) => ({ id: c.id, actualScore: c.maxScore })) }));
    expect(await call(alice, 'scoring.save', { contractId: drafted.id, body: { comment: 'drafted and scored offline', resultItems } })).toEqual({ queued: true });
    expect(await detailOf(drafted.id)).toMatchObject({ queued: true, value: { comment: 'drafted and scored offline', totalScore: local.value.maxTotalScore, version: 1 } });

    await server.start();
    const applied = await waitFor(async () => {
      const answer = await detailOf(drafted.id).catch(() => undefined);
      return answer && !answer.offline && !answer.queued ? answer : undefined;
    }, 60_000);
    expect(applied.value).toMatchObject({ comment: 'drafted and scored offline', totalScore: local.value.maxTotalScore, version: 1, counterpartyId: party!.id });
    const status = await call(alice, 'sync.status', {});
    expect(status.queued).toBe(0);
    expect(status.problems.filter((problem) => problem.rowId === drafted.id)).toEqual([]);
  });
});
