import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { PartySubtype, PartyType } from '../../src-shared/domain/enums';
import { performanceTaskTypes, sheetColumnTypes } from '../../src-shared/domain/performance';
import { projects } from '../../src-server/projects/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { isKeyedWrite } from '../../src-server/http/routes';
import { call, describeOnDatabases, failure, okData, queryRows, signIn, type CallResult } from './support';

// Idempotency-Key and If-Match at the route layer (docs/api.md "Write safety"), for every write
// endpoint of the map: a replay under the same key answers exactly what the first call answered.

const password = (username: string) => demoUsers.find((u) => u.username === username)!.password;
const missing = '01900000-0000-7000-8000-000000000000';

interface Sample {
  params?: Record<string, string>;
  body?: unknown;
  /** The table the write adds to, to check that the replay added nothing. */
  counts?: string;
}

describeOnDatabases('write safety (Idempotency-Key, If-Match)', (fixture) => {
  let app: FastifyInstance;
  let admin: string;
  let alice: string;
  const samples: Partial<Record<EndpointName, Sample>> = {};

  const url = (name: EndpointName, params: Record<string, string> = {}) =>
    endpoints[name].path.replace(/:(\w+)/g, (_, key: string) => params[key] ?? missing);
  const send = (name: EndpointName, sample: Sample, key: string, token = admin) =>
    call(app, endpoints[name].method, url(name, sample.params), { token, body: sample.body ?? {}, headers: { 'idempotency-key': key } });
  const rowCount = async (table: string) => Number((await queryRows<{ n: number }>(fixture.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 30, seed: 11 });
    app = fixture.server();
    admin = (await signIn(app, 'admin', password('admin'))).token;
    alice = (await signIn(app, 'alice', password('alice'))).token;
    const [someone] = await queryRows<{ id: string; department_id: string }>(fixture.db, sql`select id, department_id from users where username = 'alice'`);
    const [draft] = await queryRows<{ id: string }>(fixture.db, sql`select id from contracts where status = 1 order by id limit 1`);
    // One valid write per feature (numbering, contract forms, performance, counterparties,
    // projects, intellectual property, ledger, transfer); the other endpoints replay their refusal.
    Object.assign(samples, {
      designateDepartment: { body: { userId: someone!.id, departmentId: someone!.department_id } },
      deleteContract: { params: { id: draft!.id } },
      performanceCreate: {
        body: { name: `replayed ${uuidv7()}`, type: performanceTaskTypes[0], columns: [{ id: 'c1', name: 'name', type: sheetColumnTypes[0] }] },
        counts: 'performances',
      },
      counterpartyCreate: { body: { type: PartyType.Outer, subtype: PartySubtype.Organization, name: 'Replay Ltd.' }, counts: 'counterparties' },
      projectCreate: { body: { name: 'replayed project' }, counts: 'projects' },
      ipOrganizationCreate: { body: { name: 'replayed organization' }, counts: 'ip_organizations' },
      ledgerSceneCreate: { body: { name: 'replayed scene' }, counts: 'ledger_scenes' },
    } satisfies Partial<Record<EndpointName, Sample>>);
  });

  const writes = (Object.keys(endpoints) as EndpointName[]).filter(isKeyedWrite);

  it('covers every POST, PUT and DELETE of the map but sync push and logout', () => {
    const all = (Object.keys(endpoints) as EndpointName[]).filter((name) => endpoints[name].auth && endpoints[name].method !== 'GET');
    expect(all.filter((name) => !writes.includes(name)).sort()).toEqual(['logout', 'syncPush']);
  });

  describe.each(writes)('%s', (name) => {
    it('answers a replay under the same key with the first response, and adds nothing', async () => {
      const sample = samples[name] ?? {};
      const key = `replay-${name}`;
      const first = await send(name, sample, key);
      if (samples[name]) expect(first.status, JSON.stringify(first.json)).toBe(200);
      const afterFirst = sample.counts ? await rowCount(sample.counts) : 0;
      const again = await send(name, sample, key);
      expect({ status: again.status, json: again.json }).toEqual({ status: first.status, json: first.json });
      if (sample.counts) expect(await rowCount(sample.counts)).toBe(afterFirst);
    });
  });

  it('refuses the same key for a different request with 409', async () => {
    const headers = { 'idempotency-key': 'mismatch-1' };
    okData('projectCreate', await call(app, 'POST', url('projectCreate'), { token: alice, body: { name: 'first use' }, headers }));
    const reused = failure(await call(app, 'POST', url('projectCreate'), { token: alice, body: { name: 'second use' }, headers }), 409, 'conflict');
    expect(reused.message).toContain('already used for a different request');
    // Keys are per user: another user's same key is a new write.
    okData('projectCreate', await call(app, 'POST', url('projectCreate'), { token: admin, body: { name: 'second use' }, headers }));
    failure(await call(app, 'POST', url('projectCreate'), { token: alice, body: { name: 'x' }, headers: { 'idempotency-key': 'x'.repeat(201) } }), 400, 'bad_request');
  });

  it('applies concurrent replays once', async () => {
    const headers = { 'idempotency-key': 'concurrent-project' };
    const results: CallResult[] = await Promise.all(
      Array.from({ length: 8 }, () => call(app, 'POST', url('projectCreate'), { token: alice, body: { name: 'concurrent replay' }, headers })),
    );
    const ids = new Set(results.map((r) => okData('projectCreate', r).id));
    expect(ids.size).toBe(1);
    expect(await fixture.db.select().from(projects).where(eq(projects.name, 'concurrent replay'))).toHaveLength(1);
  });

  it('stores nothing for a refused write, so a corrected retry under another key runs', async () => {
    const headers = { 'idempotency-key': 'refused-once' };
    failure(await call(app, 'POST', url('projectCreate'), { token: alice, body: { name: '' }, headers }), 400, 'validation_failed');
    expect(await queryRows(fixture.db, sql`select 1 from idempotency_keys where key = 'refused-once'`)).toHaveLength(0);
  });

  it('refuses a stale If-Match on update and delete with 409 and the current row', async () => {
    const created = okData('projectCreate', await call(app, 'POST', url('projectCreate'), { token: alice, body: { name: 'versioned' } }));
    const updated = okData('projectUpdate', await call(app, 'PUT', url('projectUpdate', { id: created.id }), { token: alice, body: { name: 'versioned 2' }, headers: { 'if-match': '"1"' } }));
    expect(updated.version).toBe(2);
    const stale = failure(await call(app, 'PUT', url('projectUpdate', { id: created.id }), { token: alice, body: { name: 'lost' }, headers: { 'if-match': '1' } }), 409, 'conflict');
    expect(stale.data).toEqual(updated);
    const staleDelete = failure(await call(app, 'DELETE', url('projectDelete', { id: created.id }), { token: alice, headers: { 'if-match': '1' } }), 409, 'conflict');
    expect(staleDelete.data).toEqual(updated);
    okData('projectDelete', await call(app, 'DELETE', url('projectDelete', { id: created.id }), { token: alice, headers: { 'if-match': '2' } }));
  });
});
