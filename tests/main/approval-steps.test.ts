import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { createOutbox, setReplicaOwner, type Outbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { clientMigrationsDir } from '../../src-main/paths';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import type { ContractStatus } from '../../src-shared/domain/enums';
import type { User } from '../../src-shared/domain/user';
import { AppFailure, toAppError } from '../../src-shared/errors';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { statusByHandMessage } from '../../src-shared/sync/mutations';
import { contractId, makeContract } from '../support/contracts';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Approval steps in the core: the shared rules refuse at once, from the contract's status on this
// device, what the server would refuse (nothing is queued then); a legal step is queued and shown
// at once; a contract.update that set a status, queued by an earlier version, is set aside with a
// clear message. Templates are not replicated: their steps go to the server, or answer OFFLINE.

const all = ledgerContractPageRequestSchema.parse({ pageNum: 1, pageSize: 50 });
const user = (role: User['role']): User => ({ id: 'u-1', username: role, displayName: role, role, departmentId: 'd-1', departmentName: 'Legal' });

describe('approval steps on the replica', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: Outbox;
  let n = 0;
  const shown = (id: string) => contractReader(replica).page(all).list.find((c) => c.id === id);
  const baseStatus = (id: string) => replica.sqlite.prepare('select status from contracts where id = ?').pluck().get(id);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (cause) {
      expect(cause).toBeInstanceOf(AppFailure);
      return toAppError(cause);
    }
    throw new Error('the step was not refused');
  };

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-21T10:00:00Z') }, newId: () => `0192f000-0000-7000-8000-${String(++n).padStart(12, '0')}` });
    const statuses: ContractStatus[] = [1, 2, 3, 4, 5];
    const rows = statuses.map((status, i) => makeContract(i + 1, { status }));
    replicaWriter(replica, replicaFeatures).applyPulledChanges(rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })), '1', '2026-11-21T10:00:00.000Z');
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('refuses a step not legal from the status shown, and one the user may not take, with nothing queued', () => {
    setReplicaOwner(replica.db, user('staff'));
    expect(refusal(() => outbox.enqueue('contract.approvalStep', { id: contractId(2), action: 'approve' }))).toEqual({
      code: 'forbidden',
      message: 'only approvers (administrators) may approve',
      reason: { key: 'notApprover', params: { step: 'approve' } },
    });
    expect(refusal(() => outbox.enqueue('contract.approvalStep', { id: contractId(4), action: 'submit' }))).toEqual({
      code: 'conflict',
      message: 'cannot submit a contract that is approved: only a contract that is drafting or approval rejected can be',
      reason: { key: 'transitionRefused', params: { subject: 'contract', status: 4, stepDone: 'submit', allowed: [1, 3] } },
    });
    expect(refusal(() => outbox.enqueue('contract.approvalStep', { id: contractId(999999), action: 'submit' }))).toMatchObject({ code: 'not_found' });
    setReplicaOwner(replica.db, user('admin'));
    expect(refusal(() => outbox.enqueue('contract.approvalStep', { id: contractId(1), action: 'reject' }))).toMatchObject({ code: 'conflict' });
    expect(outbox.status()).toMatchObject({ queued: 0, problems: [] });
    expect([1, 2, 4].map((i) => shown(contractId(i))?.status)).toEqual([1, 2, 4]);
  });

  it('queues a legal step with no base version, shows where it leads at once, and takes the next step from there', () => {
    setReplicaOwner(replica.db, user('admin'));
    const submitted = outbox.enqueue('contract.approvalStep', { id: contractId(3), action: 'submit' });
    expect(shown(contractId(3))?.status).toBe(2);
    expect(baseStatus(contractId(3))).toBe(3);
    // A second submit is refused from the status this device now shows; approving it is legal.
    expect(refusal(() => outbox.enqueue('contract.approvalStep', { id: contractId(3), action: 'submit' }))).toMatchObject({ code: 'conflict' });
    outbox.enqueue('contract.approvalStep', { id: contractId(3), action: 'approve' });
    expect(shown(contractId(3))?.status).toBe(4);
    expect(outbox.status().queued).toBe(2);
    // The approval waits for the submit: it was made on top of it.
    const [first, ...rest] = outbox.nextBatch(10);
    expect(first).toMatchObject({ id: submitted.id, name: 'contract.approvalStep', args: { id: contractId(3), action: 'submit' }, baseVersions: {} });
    expect(rest).toEqual([]);
  });

  it('reverts a step the server rejects and shows the problem with the status it meant', () => {
    setReplicaOwner(replica.db, user('admin'));
    const rejected = outbox.enqueue('contract.approvalStep', { id: contractId(2), action: 'reject', comment: 'not yet' });
    expect(shown(contractId(2))?.status).toBe(3);
    const error = { code: 'conflict' as const, message: 'cannot reject a contract that is approved: only a contract that is under approval can be' };
    outbox.settle(outbox.nextBatch(10), [{ id: rejected.id, status: 'rejected', error }]);
    expect(shown(contractId(2))?.status).toBe(2);
    expect(outbox.status()).toMatchObject({ queued: 0, problems: [{ id: rejected.id, name: 'contract.approvalStep', state: 'rejected', error }] });
  });

  it('sets aside a queued contract.update with a status from an earlier version, with a clear message; the queue goes on', () => {
    setReplicaOwner(replica.db, user('admin'));
    const insert = replica.sqlite.prepare("insert into outbox (id, name, args, base_versions, created_at, state) values (?, 'contract.update', ?, ?, '2026-11-20T09:00:00.000Z', 'pending')");
    const legacy = insert.run('0192f000-0000-7000-8000-0000000000a1', JSON.stringify({ id: contractId(1), patch: { name: 'Renamed and submitted', status: 2 } }), JSON.stringify({ [`contract:${contractId(1)}`]: 1 }));
    replica.sqlite.prepare('insert into outbox_touches (row_key, seq) values (?, ?)').run(`contract:${contractId(1)}`, legacy.lastInsertRowid);
    const fine = outbox.enqueue('contract.update', { id: contractId(3), patch: { name: 'Fine' } });
    expect(outbox.nextBatch(10).map((m) => m.id)).toEqual([fine.id]);
    expect(outbox.status().problems).toEqual([
      expect.objectContaining({ id: '0192f000-0000-7000-8000-0000000000a1', state: 'rejected', error: { code: 'bad_request', message: `Set aside: ${statusByHandMessage}.`, reason: { key: 'statusByHand' } } }),
    ]);
    expect(shown(contractId(1))).toMatchObject({ name: 'Service agreement 1', status: 1 });
  });
});

describe('approval channels of the core against the server', () => {
  const serverDir = tempDir('contract-desk-server-');
  const aliceDir = tempDir('contract-desk-alice-');
  const adminDir = tempDir('contract-desk-admin-');
  let server: RunningServer;
  let alice: Core;
  let admin: Core;

  beforeAll(async () => {
    await seedDemoData({ contracts: 30, seed: 7, dataDir: serverDir.path });
    server = await startContractServer({ port: 0, dataDir: serverDir.path });
    alice = testCore(aliceDir.path, { syncSoonMs: 20, connectivityProbeMs: 200 });
    admin = testCore(adminDir.path, { syncSoonMs: 20, connectivityProbeMs: 200 });
    await call(alice, 'session.signIn', { serverUrl: server.url, username: 'alice', password: 'alice123' });
    await call(admin, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
    await settledSync(alice);
    await settledSync(admin);
  });

  afterAll(async () => {
    await alice?.close();
    await admin?.close();
    await server?.close().catch(() => undefined);
    for (const dir of [serverDir, aliceDir, adminDir]) dir.cleanup();
  });

  const drafts = async (core: Core) => (await call(core, 'ledger.contractPage', { status: 1, pageSize: 50 })).list;
  const queued = async (core: Core) => (await call(core, 'sync.status', {})).queued;
  const drained = (core: Core) => waitFor(async () => ((await call(core, 'sync.status', {})).queued === 0 ? true : undefined));

  it('refuses at once a step the server would refuse; queues a legal one, which the server applies', async () => {
    const [draft] = await drafts(alice);
    expect(await alice.invoke('contract.approvalStep', { id: draft!.id, action: 'approve' })).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'only approvers (administrators) may approve', reason: { key: 'notApprover', params: { step: 'approve' } } },
    });
    expect(await alice.invoke('contract.approvalStep', { id: '0192f000-0000-7000-8000-0000000000ff', action: 'submit' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // As every contract write: an id that is no UUID is refused as the server refuses it.
    expect(await alice.invoke('contract.approvalStep', { id: 'not-a-uuid', action: 'submit' })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await queued(alice)).toBe(0);

    await call(alice, 'contract.approvalStep', { id: draft!.id, action: 'submit' });
    expect(await call(alice, 'contract.detail', { id: draft!.id })).toMatchObject({ status: 2, pending: true });
    await drained(alice);
    expect((await call(alice, 'sync.status', {})).problems).toEqual([]);
    await call(admin, 'sync.now', {});
    expect(await call(admin, 'contract.detail', { id: draft!.id })).toMatchObject({ status: 2, pending: false });
    await call(admin, 'contract.approvalStep', { id: draft!.id, action: 'reject', comment: 'the annex is missing' });
    await drained(admin);
    await call(alice, 'sync.now', {});
    expect(await call(alice, 'contract.detail', { id: draft!.id })).toMatchObject({ status: 3, pending: false });
  });

  it('steps a template on the server, refuses a staff approval at once, and answers OFFLINE without the server', async () => {
    const client = createContractServerClient(server.url);
    const { token } = await client.call('login', { body: { username: 'alice', password: 'alice123' } });
    const created = await client.call('createTemplate', { token, body: { name: 'Template to approve', fields: [], clauses: [] } });
    expect(created.status).toBe(1);
    expect((await call(alice, 'template.list', { q: 'Template to approve' })).list.map((t) => t.id)).toEqual([created.id]);
    expect(await call(alice, 'template.approvalStep', { id: created.id, action: 'submit' })).toMatchObject({ id: created.id, status: 2 });
    expect(await alice.invoke('template.approvalStep', { id: created.id, action: 'approve' })).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'only approvers (administrators) may approve', reason: { key: 'notApprover', params: { step: 'approve' } } },
    });
    expect(await admin.invoke('template.approvalStep', { id: created.id, action: 'submit' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await call(admin, 'template.approvalStep', { id: created.id, action: 'approve' })).toMatchObject({ status: 4 });
    expect(await call(alice, 'template.detail', { id: created.id })).toMatchObject({ name: 'Template to approve', status: 4 });

    await server.close();
    expect(await admin.invoke('template.approvalStep', { id: created.id, action: 'reject' })).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(await admin.invoke('template.detail', { id: created.id })).toMatchObject({ ok: false, error: { code: 'offline' } });
  });
});
