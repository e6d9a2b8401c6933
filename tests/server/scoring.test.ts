import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { contracts, counterparties, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import type { ScoreDetail } from '../../src-shared/api/scoring';
import type { MutationEnvelope } from '../../src-shared/api/sync';
import { v7 as uuidv7 } from 'uuid';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn, syncVersions } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

/** The loaded detail sent back with the given score for every criterion (or a function of it). */
function filled(detail: ScoreDetail, score: (c: ScoreDetail['resultItems'][number]['children'][number]) => unknown, comment = 'good partner') {
  return {
    comment,
    resultItems: detail.resultItems.map((g) => ({ ...g, children: g.children.map((c) => ({ ...c, actualScore: score(c) })) })),
  };
}

describeOnDatabases('counterparty scoring', (fixture) => {
  let app: FastifyInstance;
  let alice: string;
  let bob: string;
  const path = (id: string) => `/api/v1/contracts/${id}/score_detail`;
  const queuedId = uuidv7();
  const innerQueuedId = uuidv7();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 200, seed: 4 });
    const [aliceRow] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    const [outer] = await fixture.db.select().from(counterparties).where(eq(counterparties.type, 2)).limit(1);
    const [inner] = await fixture.db.select().from(counterparties).where(eq(counterparties.type, 1)).limit(1);
    const owner = { responsibleUserId: aliceRow!.id, departmentId: aliceRow!.departmentId };
    await fixture.db.insert(contracts).values([
      { id: 'score-me', name: 'to score', status: 4, counterpartyId: outer!.id, ...owner },
      { id: 'score-inner', name: 'inner party', status: 4, counterpartyId: inner!.id, ...owner },
      { id: 'score-none', name: 'no party', status: 1, ...owner },
      // Queued scores name a contract by its uuid (a contract's id as the desktop makes it).
      { id: queuedId, name: 'scored offline', status: 4, counterpartyId: outer!.id, ...owner },
      { id: innerQueuedId, name: 'inner party, scored offline', status: 4, counterpartyId: inner!.id, ...owner },
    ]);
    app = fixture.server();
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    bob = (await signIn(app, 'bob', demo('bob').password)).token;
  });

  const resultCount = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from score_results`))[0]!.n;

  it('loads the criteria groups with empty scores for an unscored contract', async () => {
    const detail = okData('scoreDetail', await call(app, 'GET', path('score-me'), { token: alice }));
    expect(detail.resultItems.map((g) => g.name)).toEqual(['履约能力', '服务质量', '商务条件']);
    expect(detail.maxTotalScore).toBe(100);
    expect(detail.totalScore).toBeNull();
    expect(detail.resultItems.flatMap((g) => g.children).every((c) => c.actualScore === null && c.maxScore > 0 && c.criterion)).toBe(true);
  });

  it('saves the scores and comment with the spec’s success message, and updates with the version', async () => {
    const detail = okData('scoreDetail', await call(app, 'GET', path('score-me'), { token: alice }));
    const saved = okData('scoreSubmit', await call(app, 'PUT', path('score-me'), { token: alice, body: filled(detail, (c) => c.maxScore - 1) }));
    expect(saved.message).toBe('operation successful!');
    expect(saved.detail).toMatchObject({ comment: 'good partner', totalScore: 94, version: 1 });
    const again = okData('scoreSubmit', await call(app, 'PUT', path('score-me'), {
      token: alice, body: { ...filled(detail, (c) => String(c.maxScore), ''), version: 1 },
    }));
    expect(again.detail).toMatchObject({ comment: '', totalScore: 100, version: 2 });
    failure(await call(app, 'PUT', path('score-me'), { token: alice, body: { ...filled(detail, () => 0), version: 1 } }), 409, 'conflict');
    const list = okData('counterpartyList', await call(app, 'GET', '/api/v1/counterparties', { token: alice, query: { type: 2, q: detail.counterpartyName } }));
    expect(list.list.find((p) => p.id === detail.counterpartyId)?.averageScore).toBe(100);
  });

  it('refuses empty, negative, fractional, non-digit and too-high scores with the spec’s messages', async () => {
    const detail = okData('scoreDetail', await call(app, 'GET', path('score-me'), { token: alice }));
    const before = await resultCount();
    const cases: [unknown, string][] = [
      [null, 'this field cannot be empty'], ['', 'this field cannot be empty'], [undefined, 'this field cannot be empty'],
      [-1, 'score must be an integer, positive'], [1.5, 'score must be an integer, positive'], ['1e1', 'score must be an integer, positive'],
      ["1; drop table score_results", 'score must be an integer, positive'], [1000, 'score cannot be greater than full score'],
    ];
    for (const [value, message] of cases) {
      const result = failure(await call(app, 'PUT', path('score-me'), { token: alice, body: filled(detail, () => value) }), 400, 'validation_failed');
      expect(result.issues).toContainEqual({ path: 'resultItems.0.children.0.actualScore', message });
    }
    const partial = { comment: '', resultItems: [] };
    const missing = failure(await call(app, 'PUT', path('score-me'), { token: alice, body: partial }), 400, 'validation_failed');
    expect(missing.issues!.every((i) => i.message === 'this field cannot be empty')).toBe(true);
    failure(await call(app, 'PUT', path('score-me'), { token: alice, body: { ...filled(detail, () => 1), extra: 1 } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', path('score-me'), { token: alice, body: { ...filled(detail, () => 1), comment: 'x'.repeat(2001) } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', path('score-me'), { token: alice, rawBody: '{' }), 400, 'bad_request');
    const stored = await fixture.db.select().from(contracts).where(and(eq(contracts.id, 'score-me'), isNotNull(contracts.id)));
    expect(stored).toHaveLength(1);
    expect(await resultCount()).toBe(before);
    const detailAfter = okData('scoreDetail', await call(app, 'GET', path('score-me'), { token: alice }));
    expect(detailAfter.totalScore).toBe(100);
  });

  it('needs an outer party, a visible contract and a token', async () => {
    for (const id of ['score-inner', 'score-none']) {
      const result = failure(await call(app, 'GET', path(id), { token: alice }), 400, 'bad_request');
      expect(result.message).toBe('please select an external party first');
    }
    failure(await call(app, 'GET', path('score-me'), { token: bob }), 404, 'not_found');
    failure(await call(app, 'PUT', path('score-me'), { token: bob, body: { resultItems: [] } }), 404, 'not_found');
    failure(await call(app, 'GET', path('no-such-contract'), { token: alice }), 404, 'not_found');
    failure(await call(app, 'PUT', path('no-such-contract'), { token: alice, body: { resultItems: [] } }), 404, 'not_found');
    failure(await call(app, 'GET', path('score-me')), 401, 'unauthorized');
    failure(await call(app, 'PUT', path('score-me'), { body: { resultItems: [] } }), 401, 'unauthorized');
  });

  describe('a score queued offline (contract.score), applied by the push', () => {
    const clientId = uuidv7();
    let seq = 0;
    const score = (args: Record<string, unknown>, id = uuidv7()): MutationEnvelope => ({ id, seq: ++seq, name: 'contract.score', args, baseVersions: {}, createdAt: '2026-11-28T08:00:00.000Z' });
    const push = async (token: string, mutations: MutationEnvelope[]) =>
      okData('syncPush', await callEndpoint(app, 'syncPush', { token, body: { ...syncVersions, clientId, mutations } })).results;
    const events = async (mutationId: string) => queryRows<{ action: string }>(fixture.db, sql`select action from audit_events where mutation_id = ${mutationId}`);

    it('applies like the REST call, once: a replay of its id changes nothing and records no second event', async () => {
      const detail = okData('scoreDetail', await call(app, 'GET', path(queuedId), { token: alice }));
      const mutation = score({ id: queuedId, ...filled(detail, (c) => c.maxScore - 2, 'on the train') });
      const [applied] = await push(alice, [mutation]);
      expect(applied).toMatchObject({ id: mutation.id, status: 'applied' });
      const after = okData('scoreDetail', await call(app, 'GET', path(queuedId), { token: alice }));
      expect(after).toMatchObject({ comment: 'on the train', totalScore: 100 - 2 * detail.resultItems.flatMap((g) => g.children).length, version: 1 });
      expect((await events(mutation.id)).map((e) => e.action)).toEqual(['contract.score']);

      const [replayed] = await push(alice, [mutation]);
      expect(replayed).toEqual(applied);
      expect(okData('scoreDetail', await call(app, 'GET', path(queuedId), { token: alice }))).toEqual(after);
      expect(await events(mutation.id)).toHaveLength(1);
    });

    it('refuses what the REST call refuses, with its messages, and records nothing for a refusal', async () => {
      const detail = okData('scoreDetail', await call(app, 'GET', path(queuedId), { token: alice }));
      const tooHigh = score({ id: queuedId, ...filled(detail, () => 1000), version: 1 });
      // Scored elsewhere meanwhile: a score based on the version before is stale, as an If-Match is.
      const elsewhere = score({ id: queuedId, ...filled(detail, () => 1), version: 1 });
      const stale = score({ id: queuedId, ...filled(detail, () => 0), version: 1 });
      const inner = score({ id: innerQueuedId, ...filled(detail, () => 1) });
      const hidden = score({ id: queuedId, ...filled(detail, () => 1) });
      const [high, applied, conflict, noParty] = await push(alice, [tooHigh, elsewhere, stale, inner]);
      expect(applied).toMatchObject({ status: 'applied' });
      expect(high).toMatchObject({ status: 'rejected', error: { code: 'validation_failed' } });
      expect(high!.status === 'rejected' && high!.error.issues).toContainEqual({ path: 'resultItems.0.children.0.actualScore', message: 'score cannot be greater than full score' });
      expect(conflict).toMatchObject({ status: 'rejected', error: { code: 'conflict' } });
      expect(noParty).toMatchObject({ status: 'rejected', error: { code: 'bad_request', message: 'please select an external party first' } });
      const [notBobs] = await push(bob, [hidden]);
      expect(notBobs).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
      for (const mutation of [tooHigh, stale, inner, hidden]) expect(await events(mutation.id)).toEqual([]);
      expect(okData('scoreDetail', await call(app, 'GET', path(queuedId), { token: alice }))).toMatchObject({ version: 2, totalScore: detail.resultItems.flatMap((g) => g.children).length });
    });
  });
});
