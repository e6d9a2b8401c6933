import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { draftingStore } from '../../src-main/core/contracts/drafting-store';
import { createOutbox, setReplicaOwner } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { contractTypeOptions } from '../../src-main/core/contracts/drafting-service';
import { numberAfter } from '../../src-main/core/contracts/provisional-number';
import { clientMigrationsDir } from '../../src-main/paths';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

// The provisional number of an offline draft: the serial counted on from the kept preview, and no
// number handed out twice on this device (tests/shared/numbering-scope.test.ts covers which rule).

describe('contract type options', () => {
  it('disables the types that only group others', () => {
    const types = [
      { id: 'g', name: 'Purchase', parentId: null },
      { id: 'a', name: 'Equipment', parentId: 'g' },
      { id: 'b', name: 'Services', parentId: null },
    ];
    expect(contractTypeOptions(types).map((t) => [t.id, t.disabled])).toEqual([['g', true], ['a', false], ['b', false]]);
  });
});

describe('provisional contract numbers', () => {
  it.each([
    ['CG-20261121-0001', 0, 'CG-20261121-0001'],
    ['CG-20261121-0001', 2, 'CG-20261121-0003'],
    ['CG-2026-0999', 1, 'CG-2026-1000'],
    ['CG-2026-9999', 1, 'CG-2026-10000'],
    ['HT-9', 1, 'HT-10'],
    ['7', 3, '10'],
    ['NO-SERIAL', 1, 'NO-SERIAL-1'],
  ])('counts on from %s by %i: %s', (format, step, next) => {
    expect(numberAfter(format, step)).toBe(next);
  });

  it('never hands out a number shown before or carried by a contract here, and shows the draft at once', () => {
    const dir = tempDir();
    const replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    setReplicaOwner(replica.db, { id: 'u1', username: 'alice', displayName: 'Alice', role: 'staff', departmentId: 'd1', departmentName: 'Purchasing' });
    replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(1, { contractNumber: 'CG-0002' }) }], '1', 'x');
    const store = draftingStore(replica, 'u1');
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-21T10:00:00Z') } });
    const draft = (id: string) =>
      replica.db.transaction(() => {
        const provisionalNumber = store.reserveProvisionalNumber(id, (step) => numberAfter('CG-0001', step), 'now');
        outbox.enqueue('contract.create', { id, name: 'chairs', templateId: null, contractTypeId: null, contractNumber: null, provisionalNumber, formValues: {} });
        return provisionalNumber;
      });
    const ids = ['0192f000-0000-7000-8000-000000000001', '0192f000-0000-7000-8000-000000000002', '0192f000-0000-7000-8000-000000000003'];
    expect(ids.map(draft)).toEqual(['CG-0001', 'CG-0003', 'CG-0004']);
    expect(store.contractDetail(ids[0]!)).toMatchObject({
      name: 'chairs', contractNumber: 'CG-0001', numberProvisional: true, contractNumberAuto: true, pending: true, status: 1, responsibleUserId: 'u1', departmentId: 'd1', formValues: {}, createTime: '2026-11-21T10:00:00.000Z',
    });
    // A refused draft stays the user's (issue 30), and its number is never handed out again.
    const [first] = outbox.nextBatch(1);
    outbox.settle([first!], [{ id: first!.id, status: 'rejected', error: { code: 'forbidden', message: 'no' } }]);
    expect(store.contractDetail(ids[0]!)).toMatchObject({ contractNumber: 'CG-0001', pending: false, refusal: { id: first!.id, kind: 'create', error: { code: 'forbidden' } } });
    expect(draft('0192f000-0000-7000-8000-000000000004')).toBe('CG-0005');
    replica.close();
    dir.cleanup();
  });

  it("takes the server's number when it answers: confirmed clears the flag, replaced keeps a notice", () => {
    const dir = tempDir();
    const replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const store = draftingStore(replica, 'u1');
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-21T10:00:00Z') } });
    const confirmed = '0192f000-0000-7000-8000-00000000000a';
    const replaced = '0192f000-0000-7000-8000-00000000000b';
    for (const [id, provisionalNumber] of [[confirmed, 'CG-0001'], [replaced, 'CG-0002']] as const) {
      outbox.enqueue('contract.create', { id, name: `draft ${provisionalNumber}`, templateId: null, contractTypeId: null, contractNumber: null, provisionalNumber, formValues: {} });
    }
    const batch = outbox.nextBatch(10);
    const answer = (i: number, contractNumber: string) => ({ id: batch[i]!.id, status: 'applied', versions: { [`contract:${[confirmed, replaced][i]}`]: 1 }, outcome: { contractNumber } });
    expect(outbox.settle(batch, [answer(0, 'CG-0001'), answer(1, 'CG-0007')])).toEqual({ malformed: 0, answered: 2, changed: ['numberNotice'] });
    // Until the pull brings the rows, the applied drafts show the server's numbers.
    expect(store.contractDetail(confirmed)).toMatchObject({ contractNumber: 'CG-0001', numberProvisional: false, contractNumberAuto: true, pending: false });
    expect(store.contractDetail(replaced)).toMatchObject({ contractNumber: 'CG-0007', numberProvisional: false });
    expect(store.numberNotices()).toEqual([{ contractId: replaced, contractName: 'draft CG-0002', provisional: 'CG-0002', confirmed: 'CG-0007', at: '2026-11-21T10:00:00.000Z' }]);
    replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(1, { id: replaced, contractNumber: 'CG-0007', contractNumberAuto: true }) }], '2', 'x');
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(1);
    expect(store.contractDetail(replaced)).toMatchObject({ contractNumber: 'CG-0007', numberProvisional: false, version: 1 });
    store.dismissNumberNotice(replaced);
    expect(store.numberNotices()).toEqual([]);
    replica.close();
    dir.cleanup();
  });
});
