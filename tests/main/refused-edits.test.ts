import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { draftingStore } from '../../src-main/core/contracts/drafting-store';
import { createOutbox, setReplicaOwner, type Outbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { clientMigrationsDir } from '../../src-main/paths';
import { AppFailure } from '../../src-shared/errors';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';

// Issue 30 item 5: a create or edit the server refuses stays the user's. A refused draft stays
// shown with the server's reason, its later edits wait for it, it is re-sent corrected (a new
// mutation in its place in the queue) or discarded knowingly with those edits; a number another
// contract on the device carries is refused at once, naming the field.

const draftId = '0192f000-0000-7000-8000-0000000000d1';
const otherDraft = '0192f000-0000-7000-8000-0000000000d2';
const duplicated = { code: 'conflict' as const, message: 'this number duplicates the following contract numbers: HT-9', reason: { key: 'numberDuplicated', params: { kind: 'contract', number: 'HT-9' } } };

let dir: ReturnType<typeof tempDir>;
let replica: OpenReplica;
let outbox: Outbox;
let n = 0;

beforeEach(() => {
  dir = tempDir();
  replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
  setReplicaOwner(replica.db, { id: 'u1', username: 'carol', displayName: 'Carol', role: 'staff', departmentId: 'd1', departmentName: 'Legal' });
  replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(1, { contractNumber: 'HT-1' }) }], '1', 'x');
  n = 0;
  outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-21T10:00:00Z') }, newId: () => `0192f000-0000-7000-8000-${String((n += 1)).padStart(12, '0')}` });
});

afterEach(() => {
  replica.close();
  dir.cleanup();
});

const create = (id: string, contractNumber: string | null) =>
  outbox.enqueue('contract.create', { id, name: 'Steel chairs', templateId: null, contractTypeId: null, contractNumber, provisionalNumber: null, formValues: {} });
const refuse = (ids: string[]) => {
  const batch = outbox.nextBatch(10).filter((m) => ids.includes(m.id));
  outbox.settle(batch, batch.map((m) => ({ id: m.id, status: 'rejected', error: duplicated })));
};
const detail = (id: string) => draftingStore(replica, 'u1').contractDetail(id);

describe('a refused draft', () => {
  it('stays shown with why, holds its later edits, and is re-sent corrected in its place', () => {
    const refused = create(draftId, 'HT-9');
    const later = outbox.enqueue('contract.update', { id: draftId, patch: { formValues: { signDate: '2026-12-01' } } });
    refuse([refused.id]);
    expect(detail(draftId)).toMatchObject({ name: 'Steel chairs', contractNumber: 'HT-9', refusal: { id: refused.id, kind: 'create', error: duplicated, contractNumber: 'HT-9' } });
    expect(detail(draftId)!.formValues).toEqual({ signDate: '2026-12-01' });
    // The server has no such contract: the later edit waits for the draft rather than fail after it.
    expect(outbox.nextBatch(10)).toEqual([]);
    expect(outbox.status().problems.map((p) => p.id)).toEqual([refused.id]);

    const resent = outbox.resend(refused.id, 'contract.create', { id: draftId, name: 'Steel chairs', templateId: null, contractTypeId: null, contractNumber: 'HT-10', provisionalNumber: null, formValues: {} });
    expect(resent).toEqual({ id: expect.not.stringMatching(refused.id), seq: refused.seq });
    expect(detail(draftId)).toMatchObject({ contractNumber: 'HT-10', refusal: null, pending: true });
    expect(outbox.status().problems).toEqual([]);
    // In its place: the draft goes first, its later edit after it.
    const [first] = outbox.nextBatch(10);
    expect(first).toMatchObject({ id: resent.id, name: 'contract.create', args: { contractNumber: 'HT-10' } });
    outbox.settle([first!], [{ id: first!.id, status: 'applied', versions: { [`contract:${draftId}`]: 1 }, outcome: { contractNumber: 'HT-10' } }]);
    expect(outbox.nextBatch(10)).toMatchObject([{ id: later.id, name: 'contract.update', baseVersions: { [`contract:${draftId}`]: 1 } }]);
  });

  it('is discarded knowingly with the edits that waited for it, and no other', () => {
    const refused = create(draftId, 'HT-9');
    outbox.enqueue('contract.update', { id: draftId, patch: { formValues: { signDate: '2026-12-01' } } });
    const elsewhere = outbox.enqueue('contract.update', { id: makeContract(1).id, patch: { name: 'renamed' } });
    refuse([refused.id]);
    outbox.dismiss(refused.id);
    expect(detail(draftId)).toBeNull();
    expect(outbox.status()).toMatchObject({ queued: 1, problems: [] });
    expect(outbox.nextBatch(10).map((m) => m.id)).toEqual([elsewhere.id]);
  });

  it('keeps a refused draft apart from the others', () => {
    const refused = create(draftId, 'HT-9');
    const fine = create(otherDraft, null);
    refuse([refused.id]);
    expect(outbox.nextBatch(10).map((m) => m.id)).toEqual([fine.id]);
  });
});

describe('a number another contract here carries', () => {
  const refusal = (edit: () => unknown) => {
    try {
      edit();
    } catch (cause) {
      return cause instanceof AppFailure ? cause.error : cause;
    }
    return null;
  };

  it('is refused at once, on the number field, as the server would', () => {
    expect(refusal(() => create(draftId, 'HT-1'))).toMatchObject({ code: 'conflict', issues: [{ path: 'contractNumber' }], reason: { key: 'numberDuplicated', params: { number: 'HT-1' } } });
    create(otherDraft, 'HT-2');
    expect(refusal(() => outbox.enqueue('contract.update', { id: makeContract(1).id, patch: { contractNumber: 'HT-2' } }))).toMatchObject({ issues: [{ path: 'patch.contractNumber' }] });
    // Its own number is no duplicate; nothing was queued by the refusals.
    expect(refusal(() => outbox.enqueue('contract.update', { id: otherDraft, patch: { contractNumber: 'HT-2' } }))).toBeNull();
    expect(outbox.status().queued).toBe(2);
  });
});
