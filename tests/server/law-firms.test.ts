import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { organisations } from '../../src-server/db/schema';
import { lawFirms, lawyers } from '../../src-server/law-firms/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';

const alice = demoUsers.find((u) => u.username === 'alice')!;
const firmId = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

describeOnDatabases('law firms and lawyers', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 50, seed: 7 });
    await fixture.db.delete(lawFirms);
    const [organisation] = await fixture.db.select().from(organisations);
    await fixture.db.insert(organisations).values({ id: 'elsewhere', name: 'Elsewhere' });
    await fixture.db.insert(lawFirms).values([
      ...Array.from({ length: 120 }, (_, i) => ({ id: firmId(i + 1), organisationId: organisation!.id, name: `律师事务所 ${String(i + 1).padStart(3, '0')}` })),
      { id: firmId(500), organisationId: organisation!.id, name: '100%_合伙 律师事务所' },
      { id: firmId(900), organisationId: 'elsewhere', name: '律师事务所 别家' },
    ]);
    await fixture.db.insert(lawyers).values([
      { id: firmId(1001), lawFirmId: firmId(1), name: '王律师' },
      { id: firmId(1002), lawFirmId: firmId(1), name: '李律师' },
      { id: firmId(1003), lawFirmId: firmId(2), name: '张律师' },
      { id: firmId(1009), lawFirmId: firmId(900), name: '别家律师' },
    ]);
    app = fixture.server();
    token = (await signIn(app, alice.username, alice.password)).token;
  });

  it('pages law firms 100 at a time when asked, and gives the whole list without parameters', async () => {
    const first = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { pageSize: 100, pageNum: 1 } }));
    expect(first.list).toHaveLength(100);
    expect(first.count).toBe(121);
    const defaults = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: '' , pageNum: 2 } }));
    expect(defaults.list).toHaveLength(21);
    const all = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token }));
    expect(all.list).toHaveLength(121);
    expect(all.list.map((f) => f.id)).not.toContain(firmId(900));
    expect(Object.keys(all.list[0]!).sort()).toEqual(['id', 'name']);
  });

  it('searches law firms literally', async () => {
    const percent = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: '100%_' } }));
    expect(percent.list.map((f) => f.id)).toEqual([firmId(500)]);
    const underscore = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: "_'; --" } }));
    expect(underscore.list).toEqual([]);
  });

  it('lists lawyers of the chosen firms, of this organisation only', async () => {
    const both = okData('lawyersByLawFirms', await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: `${firmId(1)},${firmId(2)},${firmId(900)}` } }));
    expect(both.list.map((l) => l.name).sort()).toEqual(['张律师', '李律师', '王律师'].sort());
    expect(both.list.find((l) => l.name === '张律师')).toEqual({ id: firmId(1003), name: '张律师', lawFirmID: firmId(2) });
    const filtered = okData('lawyersByLawFirms', await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: firmId(1), q: '王' } }));
    expect(filtered.list.map((l) => l.id)).toEqual([firmId(1001)]);
    const all = okData('lawyerList', await callEndpoint(app, 'lawyerList', { token }));
    expect(all.list).toHaveLength(3);
  });

  it('refuses bad parameters and missing tokens', async () => {
    const queries: Record<string, string | number>[] = [{ pageSize: 0 }, { pageSize: 'x' }, { pageNum: -1 }, { q: 'x'.repeat(101) }, { sort: 'name' }];
    for (const query of queries) {
      failure(await callEndpoint(app, 'lawFirmList', { token, query }), 400, 'validation_failed');
    }
    const bad = failure(await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: "1' or '1'='1" } }), 400, 'validation_failed');
    expect(bad.message).toContain('lawFirmIDs');
    failure(await callEndpoint(app, 'lawFirmList'), 401, 'unauthorized');
    failure(await callEndpoint(app, 'lawyersByLawFirms', { query: { lawFirmIDs: firmId(1) } }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'lawyerList'), 401, 'unauthorized');
    expect((await fixture.db.select().from(lawyers).where(eq(lawyers.lawFirmId, firmId(1)))).length).toBe(2);
  });
});
