import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import { approvalRecords } from '../../src-server/contract-forms/schema';
import { contracts, processedMutations, users } from '../../src-server/db/schema';
import { statusByHandMessage } from '../../src-shared/sync/mutations';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { ensureUserScenes, lockScenes } from '../../src-server/ledger/scenes';
import { ledgerScenes } from '../../src-server/ledger/schema';
import { callEndpoint, describeOnDatabases, failure, okData, pullAll, queryRows, signIn } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

type ContractRow = typeof contracts.$inferSelect;

describeOnDatabases('sync push', (fixture) => {
  let app: FastifyInstance;
  let adminToken: string;
  let aliceToken: string;
  /** Seeded contracts Alice may not see, and ones she may. */
  let notAlices: ContractRow[];
  let alices: ContractRow[];
  let approvedAlices: ContractRow[];
  let nextSeq = 1;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 800, seed: 21 });
    const [alice] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    const all = await fixture.db.select().from(contracts);
    const seesIt = (c: ContractRow) => c.responsibleUserId === alice!.id || c.departmentId === alice!.departmentId;
    // Only drafts and rejected contracts may still be edited (approved ones are altered instead).
    const editable = (c: ContractRow) => c.status === 1 || c.status === 3;
    alices = all.filter((c) => seesIt(c) && editable(c));
    approvedAlices = all.filter((c) => seesIt(c) && c.status === 4);
    notAlices = all.filter((c) => !seesIt(c));
    expect(alices.length).toBeGreaterThan(3);
    expect(notAlices.length).toBeGreaterThan(3);
    app = fixture.server();
    adminToken = (await signIn(app, 'admin', demo('admin').password)).token;
    aliceToken = (await signIn(app, 'alice', demo('alice').password)).token;
  });

  /** Takes contracts nobody else in this suite touches, so each test owns its rows. */
  const take = (pool: ContractRow[]) => pool.shift()!;

  const rename = (contract: ContractRow, name: string, base = contract.version): MutationEnvelope => ({
    id: uuidv7(),
    seq: nextSeq++,
    name: 'contract.update',
    args: { id: contract.id, patch: { name } },
    baseVersions: { [`contract:${contract.id}`]: base },
  });

  const clientId = uuidv7();
  const push = (token: string, mutations: MutationEnvelope[], overrides: Record<string, unknown> = {}) =>
    callEndpoint(app, 'syncPush', {
      token,
      body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations, ...overrides },
    });
  const results = async (token: string, mutations: MutationEnvelope[]) => okData('syncPush', await push(token, mutations)).results;
  const stored = async (id: string) => (await fixture.db.select().from(contracts).where(eq(contracts.id, id)))[0]!;
  const processedCount = async (ids: string[]) =>
    (await fixture.db.select().from(processedMutations).where(inArray(processedMutations.id, ids))).length;

  it('applies a mutation once: new version and update time, the result stored with it, and the pull delivers it', async () => {
    const target = take(alices);
    const { cursor } = await pullAll(app, adminToken, 1000);
    const mutation = rename(target, 'renamed by push');
    const [result] = await results(aliceToken, [mutation]);
    expect(result).toEqual({ id: mutation.id, status: 'applied', versions: { [`contract:${target.id}`]: target.version + 1 } });
    const after = await stored(target.id);
    expect(after).toMatchObject({ name: 'renamed by push', version: target.version + 1 });
    expect(after.updateTime.getTime()).toBeGreaterThan(target.updateTime.getTime());
    const [row] = await fixture.db.select().from(processedMutations).where(eq(processedMutations.id, mutation.id));
    expect(row).toMatchObject({ clientId, seq: mutation.seq, name: 'contract.update', result });
    const pulled = await pullAll(app, adminToken, 1000, cursor);
    expect(pulled.rows.map((r) => [r.id, r.name, r.version])).toEqual([[target.id, 'renamed by push', target.version + 1]]);
  });

  it('answers a replayed batch with the same results and applies nothing again', async () => {
    const [a, b] = [take(alices), take(alices)];
    const batch = [rename(a, 'replay a'), rename(b, 'replay b'), rename(a, 'replay a, stale', a.version)];
    const first = await results(aliceToken, batch);
    expect(first.map((r) => r.status)).toEqual(['applied', 'applied', 'conflict']);
    const again = await results(aliceToken, batch);
    expect(again).toEqual(first);
    expect((await stored(a.id)).version).toBe(a.version + 1);
    expect((await stored(b.id)).version).toBe(b.version + 1);
    expect(await processedCount(batch.map((m) => m.id))).toBe(3);
  });

  it("does not hand one user's stored result to another who sends the same mutation id", async () => {
    const target = take(alices);
    const mutation = rename(target, 'alice was here');
    await results(aliceToken, [mutation]);
    const [result] = await results(adminToken, [{ ...mutation, args: { id: target.id, patch: { name: 'admin was here' } } }]);
    expect(result).toMatchObject({ id: mutation.id, status: 'rejected', error: { code: 'conflict' } });
    expect(await stored(target.id)).toMatchObject({ name: 'alice was here', version: target.version + 1 });
  });

  it('applies a mutation pushed by many concurrent requests exactly once', async () => {
    const target = take(alices);
    const mutation = rename(target, 'concurrent replay');
    const answers = await Promise.all(Array.from({ length: 8 }, () => push(aliceToken, [mutation])));
    const all = answers.map((answer) => okData('syncPush', answer).results);
    const expected: MutationResult = { id: mutation.id, status: 'applied', versions: { [`contract:${target.id}`]: target.version + 1 } };
    for (const answer of all) expect(answer).toEqual([expected]);
    expect((await stored(target.id)).version).toBe(target.version + 1);
    expect(await processedCount([mutation.id])).toBe(1);
  });

  it('answers a stale base version with a conflict carrying the current row, and writes nothing', async () => {
    const target = take(alices);
    await results(aliceToken, [rename(target, 'theirs')]);
    const mine = rename(target, 'mine', target.version);
    const [result] = await results(aliceToken, [mine]);
    expect(result?.status).toBe('conflict');
    if (result?.status !== 'conflict') return;
    expect(result.error.code).toBe('conflict');
    expect(result.error.message).toContain(`contract:${target.id} is at version ${target.version + 1}, not ${target.version}`);
    expect(result.current).toEqual([
      expect.objectContaining({ entity: 'contract', op: 'upsert', row: expect.objectContaining({ id: target.id, name: 'theirs', version: target.version + 1 }) }),
    ]);
    expect(await stored(target.id)).toMatchObject({ name: 'theirs', version: target.version + 1 });
  });

  it('rejects an invalid mutation, naming the field, and applies the rest of the batch', async () => {
    const [a, b, c] = [take(alices), take(alices), take(alices)];
    const batch = [rename(a, 'batch a'), rename(b, 'x'), rename(c, 'batch c')];
    batch[1] = { ...batch[1]!, args: { id: b.id, patch: { amount: { amount: 1.5, unit: 'CNY' } } } };
    const out = await results(aliceToken, batch);
    expect(out.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied']);
    const rejection = out[1]!;
    expect(rejection.status === 'rejected' && rejection.error).toMatchObject({ code: 'validation_failed', issues: [expect.objectContaining({ path: 'patch.amount.amount' })] });
    expect((await stored(b.id)).version).toBe(b.version);
    expect((await stored(c.id)).name).toBe('batch c');
  });

  it('rejects a mutation without the base version of a row it touches', async () => {
    const target = take(alices);
    const [result] = await results(aliceToken, [{ ...rename(target, 'no base'), baseVersions: {} }]);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', issues: [{ path: `baseVersions.contract:${target.id}` }] } });
  });

  it('rejects an unknown mutation name with a message naming it', async () => {
    const [result] = await results(aliceToken, [{ ...rename(take(alices), 'x'), name: 'contract.teleport' }]);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'bad_request' } });
    expect(result?.status === 'rejected' && result.error.message).toContain("unknown mutation 'contract.teleport'");
  });

  it("refuses another user's contract (forbidden) and a missing one (not_found), changing nothing", async () => {
    const theirs = take(notAlices);
    const out = await results(aliceToken, [rename(theirs, 'stolen'), rename({ ...theirs, id: '0192f000-0000-7000-8000-00000000dead' }, 'ghost')]);
    expect(out.map((r) => r.status === 'rejected' && r.error.code)).toEqual(['forbidden', 'not_found']);
    expect(await stored(theirs.id)).toMatchObject({ name: theirs.name, version: theirs.version });
  });

  it('applies a new mutation whose seq is below one already applied, and applies a batch in seq order', async () => {
    const target = take(alices);
    const later = rename(target, 'seq 2');
    const earlier = { ...rename(target, 'seq 1'), seq: later.seq - 1 };
    // Sent out of order: the server applies seq 1 first (at the base version), then seq 2 conflicts.
    const out = await results(aliceToken, [later, earlier]);
    expect(out.map((r) => [r.id, r.status])).toEqual([[earlier.id, 'applied'], [later.id, 'conflict']]);
    const old = { ...rename(target, 'an old seq', target.version + 1), seq: 1 };
    expect((await results(aliceToken, [old]))[0]?.status).toBe('applied');
    expect(await stored(target.id)).toMatchObject({ name: 'an old seq', version: target.version + 2 });
  });

  it.runIf(fixture.kind === 'PostgreSQL')('runs a push again that lost a deadlock to a lock taken inside a feature’s write, and applies it once', { timeout: 60_000 }, async () => {
    const [admin] = await fixture.db.select().from(users).where(eq(users.username, 'admin'));
    await ensureUserScenes(fixture.db, admin!);
    const [scene] = await fixture.db.select().from(ledgerScenes).where(and(eq(ledgerScenes.userId, admin!.id), eq(ledgerScenes.isDefault, false)));
    const makeDefault: MutationEnvelope = { id: uuidv7(), seq: nextSeq++, name: 'scene.setDefault', args: { id: scene!.id }, baseVersions: {} };
    let pushed: Promise<Awaited<ReturnType<typeof push>>> | undefined;
    // Another writer holds the user's scene lock (as a REST save of the scene list does), while
    // the push holds the scene's row and waits for that lock; then the writer asks for the row.
    await fixture.db.transaction(async (tx) => {
      await lockScenes(tx, admin!.id);
      pushed = push(adminToken, [makeDefault]);
      const waitingForLock = sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
      while ((await queryRows<{ n: number }>(fixture.db, waitingForLock))[0]!.n === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.select({ id: ledgerScenes.id }).from(ledgerScenes).where(eq(ledgerScenes.id, scene!.id)).for('update');
    });
    const [result] = okData('syncPush', await pushed!).results;
    expect(result).toMatchObject({ id: makeDefault.id, status: 'applied' });
    const defaults = await fixture.db.select({ id: ledgerScenes.id }).from(ledgerScenes).where(and(eq(ledgerScenes.userId, admin!.id), eq(ledgerScenes.isDefault, true)));
    expect(defaults).toEqual([{ id: scene!.id }]);
    expect(await processedCount([makeDefault.id])).toBe(1);
  });

  it('refuses an unsupported protocol or schema version with 400, and a push without a token with 401', async () => {
    const mutation = rename(take(alices), 'never');
    failure(await push(aliceToken, [mutation], { protocolVersion: syncProtocolVersion + 1 }), 400, 'bad_request');
    failure(await push(aliceToken, [mutation], { schemaVersion: 99 }), 400, 'bad_request');
    failure(await push(aliceToken, [], {}), 400, 'validation_failed');
    failure(await callEndpoint(app, 'syncPush', { body: {} }), 401, 'unauthorized');
    expect(await processedCount([mutation.id])).toBe(0);
  });

  it('holds offline edits to the REST rules: no edit of an approved contract, no status set by editing', async () => {
    const approved = take(approvedAlices);
    const draft = take(alices);
    const afterApproval = rename(approved, 'renamed after approval');
    // A status in the patch, as versions before the approval steps queued it.
    const statusByHand: MutationEnvelope = { ...rename(draft, 'unused'), args: { id: draft.id, patch: { name: 'with a status', status: 2 } } };
    const [edit, byHand] = await results(aliceToken, [afterApproval, statusByHand]);
    expect(edit).toMatchObject({ status: 'rejected', error: { code: 'conflict', message: expect.stringContaining('approved cannot be edited'), reason: { key: 'notEditableContract', params: { status: 4 } } } });
    expect(byHand).toMatchObject({ status: 'rejected', error: { code: 'bad_request', message: statusByHandMessage, reason: { key: 'statusByHand' } } });
    const rows = await fixture.db.select().from(contracts).where(inArray(contracts.id, [approved.id, draft.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(approved.id)!.name).toBe(approved.name);
    expect(byId.get(draft.id)).toMatchObject({ name: draft.name, status: draft.status, version: draft.version });
  });

  describe('approval steps (contract.approvalStep)', () => {
    const step = (contract: ContractRow, action: string, comment?: string): MutationEnvelope => ({
      id: uuidv7(),
      seq: nextSeq++,
      name: 'contract.approvalStep',
      args: { id: contract.id, action, ...(comment !== undefined && { comment }) },
      // A step is decided by the contract's status, not by the version it was made on.
      baseVersions: {},
    });
    const recordsOf = (id: string) => fixture.db.select().from(approvalRecords).where(eq(approvalRecords.subjectId, id)).orderBy(asc(approvalRecords.createTime), asc(approvalRecords.id));

    it('applies a step once, through the REST rules, and records it', async () => {
      const draft = take(alices);
      const submit = step(draft, 'submit');
      const [applied] = await results(aliceToken, [submit]);
      expect(applied).toEqual({ id: submit.id, status: 'applied', versions: { [`contract:${draft.id}`]: draft.version + 1 } });
      // A replay (the answer was lost) returns the stored result and does not step again.
      expect(await results(aliceToken, [submit])).toEqual([applied]);
      expect(await stored(draft.id)).toMatchObject({ status: 2, version: draft.version + 1 });
      const [record] = await recordsOf(draft.id);
      expect(await recordsOf(draft.id)).toHaveLength(1);
      expect(record).toMatchObject({ subjectKind: 'contract', action: 'submit', fromStatus: draft.status, toStatus: 2 });
    });

    it('refuses what the server refuses over REST: a staff approval, a step not legal now, a contract not theirs', async () => {
      const draft = take(alices);
      const hidden = take(notAlices);
      const [approveDraft, rejectAsStaff, notTheirs] = await results(aliceToken, [step(draft, 'approve'), step(draft, 'reject'), step(hidden, 'submit')]);
      expect(approveDraft).toMatchObject({ status: 'rejected', error: { code: 'forbidden', message: 'only approvers (administrators) may approve', reason: { key: 'notApprover', params: { step: 'approve' } } } });
      expect(rejectAsStaff).toMatchObject({ status: 'rejected', error: { code: 'forbidden' } });
      expect(notTheirs).toMatchObject({ status: 'rejected', error: { code: 'forbidden' } });
      const [approveDraftAsAdmin] = await results(adminToken, [step(draft, 'approve')]);
      expect(approveDraftAsAdmin).toMatchObject({
        status: 'rejected',
        error: { code: 'conflict', message: `cannot approve a contract that is ${draft.status === 1 ? 'drafting' : 'approval rejected'}: only a contract that is under approval can be` },
      });
      expect(await stored(draft.id)).toMatchObject({ status: draft.status, version: draft.version });
      expect(await recordsOf(draft.id)).toEqual([]);
    });

    it('two approvers decide one contract offline: the first applies, the second finds it decided', async () => {
      const draft = take(alices);
      await results(aliceToken, [step(draft, 'submit')]);
      // Both approvers took their step on the same version, each on their own device.
      const approve = step(draft, 'approve');
      const reject = step(draft, 'reject', 'the amount is wrong');
      const [first] = await results(adminToken, [approve]);
      const [second] = okData('syncPush', await push(adminToken, [reject], { clientId: uuidv7() })).results;
      expect(first).toMatchObject({ status: 'applied' });
      expect(second).toEqual({
        id: reject.id,
        status: 'rejected',
        error: {
          code: 'conflict',
          message: 'cannot reject a contract that is approved: only a contract that is under approval can be',
          reason: { key: 'transitionRefused', params: { subject: 'contract', status: 4, stepDone: 'reject', allowed: [2] } },
        },
      });
      expect(await stored(draft.id)).toMatchObject({ status: 4, version: draft.version + 2 });
      expect((await recordsOf(draft.id)).map((r) => r.action)).toEqual(['submit', 'approve']);
    });

    it('rejects with the comment kept, and a rejected contract can be submitted again', async () => {
      const draft = take(alices);
      await results(aliceToken, [step(draft, 'submit')]);
      expect((await results(adminToken, [step(draft, 'reject', '  needs the annex  ')]))[0]).toMatchObject({ status: 'applied' });
      expect((await results(aliceToken, [step(draft, 'submit')]))[0]).toMatchObject({ status: 'applied' });
      expect(await stored(draft.id)).toMatchObject({ status: 2 });
      expect((await recordsOf(draft.id)).map((r) => [r.action, r.comment])).toEqual([['submit', null], ['reject', 'needs the annex'], ['submit', null]]);
    });
  });

  it('refuses a signing date, amount or type set beside the form that holds it, and takes it through the form', async () => {
    const target = take(alices);
    const edit = (patch: Record<string, unknown>, base: number): MutationEnvelope => ({ ...rename(target, 'unused', base), args: { id: target.id, patch } });
    const [date, amount, type] = await results(aliceToken, [
      edit({ signDate: '2026-12-01' }, target.version),
      edit({ amount: { amount: 123_400, unit: 'CNY' } }, target.version),
      edit({ contractTypeId: uuidv7() }, target.version),
    ]);
    expect(date).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', issues: [{ path: 'patch.signDate' }], reason: { key: 'termInForm', params: { term: 'signDate' } } } });
    expect(amount).toMatchObject({ status: 'rejected', error: { issues: [{ path: 'patch.amount' }], reason: { key: 'termInForm', params: { term: 'amount' } } } });
    expect(type).toMatchObject({ status: 'rejected', error: { issues: [{ path: 'patch.contractTypeId' }], reason: { key: 'termInForm', params: { term: 'contractType' } } } });
    expect(await stored(target.id)).toMatchObject({ version: target.version, signDate: target.signDate });
    // Through the form the date is kept, in the form and in the column alike; set to the form's own value beside it, it is no change.
    const [viaForm, same] = await results(aliceToken, [edit({ formValues: { signDate: '2026-12-01' } }, target.version), edit({ signDate: '2026-12-01' }, target.version + 1)]);
    expect([viaForm?.status, same?.status]).toEqual(['applied', 'applied']);
    const after = await stored(target.id);
    expect(after).toMatchObject({ signDate: '2026-12-01', formValues: expect.objectContaining({ signDate: '2026-12-01' }) });
  });

  it('strips the characters a contract name may not hold, and checks a changed number against the others', async () => {
    const [a, b] = [take(alices), take(alices)];
    const renumber = (contract: ContractRow, contractNumber: string): MutationEnvelope => ({
      ...rename(contract, 'unused'),
      args: { id: contract.id, patch: { contractNumber } },
    });
    const [cleaned] = await results(aliceToken, [rename(a, 'Lease: north wing?')]);
    expect(cleaned).toMatchObject({ status: 'applied' });
    const [row] = await fixture.db.select().from(contracts).where(eq(contracts.id, a.id));
    expect(row!.name).toBe('Lease north wing');
    await fixture.db.update(contracts).set({ contractNumber: 'HT-TAKEN-1' }).where(eq(contracts.id, b.id));
    const [duplicate] = await results(aliceToken, [renumber({ ...a, version: row!.version }, 'HT-TAKEN-1')]);
    expect(duplicate).toMatchObject({ status: 'rejected', error: { code: 'conflict' } });
  });
});
