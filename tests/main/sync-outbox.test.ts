import { eq } from 'drizzle-orm';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox, type Outbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { outbox as outboxTable } from '../../src-main/core/data/schema';
import { clientMigrationsDir } from '../../src-main/paths';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

const all = ledgerContractPageRequestSchema.parse({ pageNum: 1, pageSize: 50, status: null, q: '', sort: { field: 'updateTime', order: 'asc' } });

describe('outbox and optimistic overlay', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: Outbox;
  let ids = 0;
  const shown = (id: string) => contractReader(replica).page(all).list.find((c) => c.id === id);
  const pull = (...rows: ReturnType<typeof makeContract>[]) =>
    replicaWriter(replica, replicaFeatures).applyPulledChanges(rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })), String(++ids), '2026-11-21T10:00:00.000Z');

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    let n = 0;
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-21T10:00:00Z') }, newId: () => `0192f000-0000-7000-8000-${String(++n).padStart(12, '0')}` });
    pull(makeContract(1), makeContract(2));
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('writes the optimistic row and the outbox row together, keeping the base row as the server sent it', () => {
    const { id, seq } = outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Renamed' } });
    expect(shown(contractId(1))?.name).toBe('Renamed');
    expect(shown(contractId(2))?.name).toBe('Service agreement 2');
    expect(replica.sqlite.prepare('select name from contracts where id = ?').pluck().get(contractId(1))).toBe('Service agreement 1');
    const row = replica.db.select().from(outboxTable).where(eq(outboxTable.id, id)).get();
    expect(row).toMatchObject({ seq, name: 'contract.update', state: 'pending', attempts: 0, baseVersions: JSON.stringify({ [`contract:${contractId(1)}`]: 1 }) });
    expect(outbox.status()).toMatchObject({ queued: 1, oldestQueuedAt: '2026-11-21T10:00:00.000Z', problems: [] });
  });

  it('lets the ledger search and filter the optimistic rows, not the base ones they hide', () => {
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Zeta unique' } });
    const search = (q: string, status: number | null = null) =>
      contractReader(replica).page(ledgerContractPageRequestSchema.parse({ ...all, q, status })).list.map((c) => c.id);
    expect(search('Zeta')).toEqual([contractId(1)]);
    expect(search('Service agreement')).toEqual([contractId(2)]);
    expect(search('Zeta', makeContract(1).status)).toEqual([contractId(1)]);
    expect(contractReader(replica).page(all).count).toBe(2);
  });

  it('refuses invalid args with validation_failed and writes nothing', () => {
    expect(() => outbox.enqueue('contract.update', { id: contractId(1), patch: {} })).toThrow(/patch changes nothing/);
    expect(outbox.status().queued).toBe(0);
  });

  it('re-applies unconfirmed edits on top of a pulled base row, in seq order', () => {
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'First' } });
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Second', contractNumber: 'X-1' } });
    pull(makeContract(1, { version: 2, counterpartName: 'Changed elsewhere' }));
    expect(shown(contractId(1))).toMatchObject({ name: 'Second', contractNumber: 'X-1', counterpartName: 'Changed elsewhere' });
  });

  it('sends one mutation per row at a time, re-basing the next on the applied result; none goes ahead of one that waits', () => {
    const first = outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'First' } });
    outbox.enqueue('contract.update', { id: contractId(1), patch: { contractNumber: 'N-2' } });
    outbox.enqueue('contract.update', { id: contractId(2), patch: { name: 'Other' } });
    // The edit of contract 2 was made after the waiting one: it waits too, so edits apply in the order made.
    const batch = outbox.nextBatch(10);
    expect(batch.map((m) => m.seq)).toEqual([1]);
    outbox.settle(batch, [{ id: first.id, status: 'applied', versions: { [`contract:${contractId(1)}`]: 2 } }]);
    // The applied edit stays visible until a pull brings it; the waiting one now builds on version 2.
    expect(shown(contractId(1))).toMatchObject({ name: 'First', contractNumber: 'N-2' });
    expect(outbox.nextBatch(10).map((m) => [m.seq, m.baseVersions])).toEqual([
      [2, { [`contract:${contractId(1)}`]: 2 }],
      [3, { [`contract:${contractId(2)}`]: 1 }],
    ]);
    pull(makeContract(1, { version: 2, name: 'First' }));
    expect(replica.db.select().from(outboxTable).all().map((r) => r.seq)).toEqual([2, 3]);
  });

  it('reverts a rejected edit, keeps it to be shown, and lets the next one of the row go on', () => {
    const bad = outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Refused' } });
    outbox.enqueue('contract.update', { id: contractId(1), patch: { contractNumber: 'OK-1' } });
    outbox.settle(outbox.nextBatch(10), [{ id: bad.id, status: 'rejected', error: { code: 'forbidden', message: 'no' } }]);
    expect(shown(contractId(1))).toMatchObject({ name: 'Service agreement 1', contractNumber: 'OK-1' });
    expect(outbox.status()).toMatchObject({ queued: 1, problems: [{ id: bad.id, state: 'rejected', error: { code: 'forbidden' } }] });
    outbox.dismiss(bad.id);
    expect(outbox.status().problems).toEqual([]);
  });

  it('turns a conflict into a record the user settles: keep theirs, or apply mine again on the current version', () => {
    const mine = outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Mine' } });
    const current = [{ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(1, { version: 5, name: 'Theirs' }) }];
    outbox.settle(outbox.nextBatch(10), [{ id: mine.id, status: 'conflict', error: { code: 'conflict', message: 'changed' }, current }]);
    expect(shown(contractId(1))?.name).toBe('Service agreement 1');
    expect(outbox.status().problems).toMatchObject([{ id: mine.id, state: 'conflict', current }]);
    const again = outbox.applyMineAgain(mine.id);
    expect(shown(contractId(1))?.name).toBe('Mine');
    expect(outbox.nextBatch(10)).toMatchObject([{ id: again.id, baseVersions: { [`contract:${contractId(1)}`]: 5 } }]);
    expect(outbox.status().problems).toEqual([]);
  });

  it('sets aside a corrupted row and an unknown mutation with a clear message; the queue goes on', () => {
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Corrupted later' } });
    outbox.enqueue('contract.update', { id: contractId(2), patch: { name: 'Fine' } });
    replica.sqlite.prepare("update outbox set args = '{not json' where seq = 1").run();
    replica.sqlite
      .prepare("insert into outbox (id, name, args, base_versions, created_at, state) values ('0192f000-0000-7000-8000-00000000ffff', 'contract.fly', '{}', '{}', 'x', 'pending')")
      .run();
    expect(outbox.nextBatch(10).map((m) => m.seq)).toEqual([2]);
    expect(outbox.status().problems.map((p) => p.error?.message)).toEqual([
      expect.stringMatching(/^Set aside: the stored "contract.update" is corrupted/),
      'Set aside: unknown mutation "contract.fly" (written by another version of the app).',
    ]);
    expect(shown(contractId(1))?.name).toBe('Service agreement 1');
  });

  it('sets aside a mutation the server never answers validly, without holding up the others', () => {
    const poisoned = outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Poison' } });
    const fine = outbox.enqueue('contract.update', { id: contractId(2), patch: { name: 'Fine' } });
    for (let i = 0; i < 5; i++) {
      const batch = outbox.nextBatch(10);
      const results = batch.filter((m) => m.id === fine.id).map((m) => ({ id: m.id, status: 'applied', versions: { [`contract:${contractId(2)}`]: 2 } }));
      outbox.settle(batch, [...results, { id: poisoned.id, status: 'weird' }]);
    }
    expect(outbox.status()).toMatchObject({ queued: 0, problems: [{ id: poisoned.id, error: { message: 'Set aside: the server gave no valid answer for it 5 times.' } }] });
  });

  it('refuses at once an edit the server would refuse: a contract not in the replica, values a form without template lacks', () => {
    const missing = '0192f000-0000-7000-8000-0000000000ab';
    expect(() => outbox.enqueue('contract.update', { id: missing, patch: { name: 'Ghost' } })).toThrow(`contract:${missing} does not exist`);
    expect(() => outbox.enqueue('contract.alter', { id: missing, formValues: { remark: 'x' }, reason: 'why' })).toThrow(`contract:${missing} does not exist`);
    // The test contracts have no template: every value is foreign to their (empty) form, as the server says.
    expect(() => outbox.enqueue('contract.update', { id: contractId(1), patch: { formValues: { notes: 'x' } } })).toThrow('formValues.notes: is not a field of this form');
    expect(() => outbox.enqueue('contract.update', { id: contractId(1), patch: { formValues: { notes: 'x'.repeat(300 * 1024) } } })).toThrow('form values may be at most 256 KiB');
    expect(outbox.status().queued).toBe(0);
    expect(shown(contractId(1))?.name).toBe('Service agreement 1');
  });

  it('keeps a push batch within the size the server takes, the first edit always going', () => {
    // Drafts from a template not kept here: the server checks their values.
    const draft = (n: number, kib: number) =>
      outbox.enqueue('contract.create', { id: `0192f000-0000-7000-8000-0000000000${n}0`, name: `big ${n}`, templateId: 't-elsewhere', contractTypeId: null, contractNumber: null, provisionalNumber: null, formValues: { notes: 'x'.repeat(kib * 1024) } });
    const ids = [draft(1, 200).id, draft(2, 200).id, draft(3, 200).id];
    expect(outbox.nextBatch(500).map((m) => m.id)).toEqual(ids.slice(0, 2));
    outbox.settle(outbox.nextBatch(500), ids.slice(0, 2).map((id) => ({ id, status: 'rejected', error: { code: 'bad_request', message: 'no' } })));
    expect(outbox.nextBatch(500).map((m) => m.id)).toEqual([ids[2]]);
  });
});
