import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { organisations } from '../../src-server/db/schema';
import { intellectualProperties, ipOrganizations } from '../../src-server/intellectual-property/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const missing = '01900000-0000-7000-8000-000000000000';
const foreignOrg = '01900000-0000-7000-8000-0000000000f1';

describeOnDatabases('intellectual property register', (fixture) => {
  let app: FastifyInstance;
  let alice: string;
  let bob: string;
  let holder: { id: string; version: number };
  let buyer: { id: string };
  let property: { id: string; version: number };

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 50, seed: 8 });
    await fixture.db.insert(organisations).values({ id: 'other-org', name: 'Other' });
    await fixture.db.insert(ipOrganizations).values({ id: foreignOrg, organisationId: 'other-org', name: '别家公司' });
    app = fixture.server();
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    bob = (await signIn(app, 'bob', demo('bob').password)).token;
  });

  const propertyCount = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from intellectual_properties`))[0]!.n;
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: '合同比对方法', type: 'patent', registrationNumber: 'ZL202410000001.1', ownerOrganizationId: holder.id,
    status: 'filed', applicationDate: '2024-01-10', ...overrides,
  });

  it('manages holder organisations', async () => {
    const seeded = okData('ipOrganizationList', await callEndpoint(app, 'ipOrganizationList', { token: alice }));
    expect(seeded.list.length).toBeGreaterThan(3);
    expect(seeded.list.map((o) => o.id)).not.toContain(foreignOrg);
    holder = okData('ipOrganizationCreate', await callEndpoint(app, 'ipOrganizationCreate', { token: alice, body: { name: '  测试控股  ', creditCode: '91310000TEST00001X' } }));
    expect(holder).toMatchObject({ name: '测试控股', propertyCount: 0, remark: '', version: 1 });
    buyer = okData('ipOrganizationCreate', await callEndpoint(app, 'ipOrganizationCreate', { token: bob, body: { name: '受让方 100%_公司' } }));
    failure(await callEndpoint(app, 'ipOrganizationCreate', { token: alice, body: { name: '测试控股' } }), 409, 'conflict');
    const noName = failure(await callEndpoint(app, 'ipOrganizationCreate', { token: alice, body: { name: '' } }), 400, 'validation_failed');
    expect(noName.issues).toContainEqual({ path: 'name', message: 'please enter the name' });
    failure(await callEndpoint(app, 'ipOrganizationCreate', { token: alice, body: { name: 'x', extra: 1 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipOrganizationCreate', { body: { name: 'x' } }), 401, 'unauthorized');
    const found = okData('ipOrganizationList', await callEndpoint(app, 'ipOrganizationList', { token: alice, query: { q: '100%_' } }));
    expect(found.list.map((o) => o.id)).toEqual([buyer.id]);

    const path = `/api/v1/intellectual_property_organizations/${holder.id}`;
    const updated = okData('ipOrganizationUpdate', await call(app, 'PUT', path, { token: alice, body: { name: '测试控股集团', version: 1 } }));
    expect(updated).toMatchObject({ name: '测试控股集团', creditCode: null, version: 2 });
    holder = updated;
    failure(await call(app, 'PUT', path, { token: alice, body: { name: 'stale', version: 1 } }), 409, 'conflict');
    failure(await call(app, 'PUT', `/api/v1/intellectual_property_organizations/${foreignOrg}`, { token: alice, body: { name: 'mine' } }), 404, 'not_found');
    failure(await call(app, 'PUT', path, { token: alice, body: { name: 7 } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', path, { body: { name: 'x' } }), 401, 'unauthorized');
  });

  it('creates, reads, updates and lists rights with the register’s rules', async () => {
    const created = okData('ipCreate', await callEndpoint(app, 'ipCreate', { token: alice, body: body() }));
    expect(created).toMatchObject({ ownerOrganizationName: '测试控股集团', status: 'filed', records: [], transfers: [], version: 1 });
    property = created;
    failure(await callEndpoint(app, 'ipCreate', { token: alice, body: body() }), 409, 'conflict');
    const dates = failure(await callEndpoint(app, 'ipCreate', { token: alice, body: body({ registrationNumber: 'X1', expirationDate: '2020-01-01' }) }), 400, 'validation_failed');
    expect(dates.issues).toContainEqual({ path: 'expirationDate', message: 'the expiration date cannot be earlier than the application date' });
    const registered = failure(await callEndpoint(app, 'ipCreate', { token: alice, body: body({ registrationNumber: 'X2', status: 'registered' }) }), 400, 'validation_failed');
    expect(registered.issues).toContainEqual({ path: 'registrationDate', message: 'please enter the registration date' });
    failure(await callEndpoint(app, 'ipCreate', { token: alice, body: body({ registrationNumber: 'X3', ownerOrganizationId: foreignOrg }) }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipCreate', { token: alice, body: body({ registrationNumber: 'X4', type: 'recipe' }) }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipCreate', { token: alice, body: body({ registrationNumber: 'X5', applicationDate: '2024-13-45' }) }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipCreate', { body: body() }), 401, 'unauthorized');

    const path = `/api/v1/intellectual_properties/${property.id}`;
    expect(okData('ipGet', await call(app, 'GET', path, { token: bob })).id).toBe(property.id);
    failure(await call(app, 'GET', `/api/v1/intellectual_properties/${missing}`, { token: bob }), 404, 'not_found');
    failure(await call(app, 'GET', path), 401, 'unauthorized');
    const updated = okData('ipUpdate', await call(app, 'PUT', path, { token: alice, body: body({ name: '合同文本比对方法', version: 1 }) }));
    expect(updated).toMatchObject({ name: '合同文本比对方法', version: 2 });
    failure(await call(app, 'PUT', path, { token: alice, body: body({ version: 1 }) }), 409, 'conflict');
    const owner = failure(await call(app, 'PUT', path, { token: alice, body: body({ ownerOrganizationId: buyer.id }) }), 400, 'validation_failed');
    expect(owner.issues).toContainEqual({ path: 'ownerOrganizationId', message: 'the owner changes only by a transfer' });
    failure(await call(app, 'PUT', `/api/v1/intellectual_properties/${missing}`, { token: alice, body: body() }), 404, 'not_found');
    failure(await call(app, 'PUT', path, { body: body() }), 401, 'unauthorized');

    const list = okData('ipList', await callEndpoint(app, 'ipList', { token: alice, query: { q: 'ZL202410000001', type: 'patent' } }));
    expect(list.list.map((p) => p.id)).toEqual([property.id]);
    const all = okData('ipList', await callEndpoint(app, 'ipList', { token: alice, query: { pageSize: 10 } }));
    expect(all.count).toBeGreaterThan(400);
    expect(okData('ipList', await callEndpoint(app, 'ipList', { token: alice, query: { q: "%' or 1=1 --" } })).count).toBe(0);
    failure(await callEndpoint(app, 'ipList', { token: alice, query: { status: 'lost' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipList'), 401, 'unauthorized');
  });

  it('moves status along the life of a right and transfers it with a chain of title', async () => {
    const path = `/api/v1/intellectual_properties/${property.id}`;
    failure(await call(app, 'PUT', `${path}/status`, { token: alice, body: { status: 'expired' } }), 400, 'bad_request');
    failure(await call(app, 'PUT', `${path}/status`, { token: alice, body: { status: 'registered' } }), 400, 'validation_failed');
    const granted = okData('ipStatus', await call(app, 'PUT', `${path}/status`, { token: alice, body: { status: 'registered', registrationDate: '2025-02-01' } }));
    expect(granted).toMatchObject({ status: 'registered', registrationDate: '2025-02-01' });
    failure(await call(app, 'PUT', `${path}/status`, { token: alice, body: { status: 'registered', version: 1 } }), 409, 'conflict');
    failure(await call(app, 'PUT', `/api/v1/intellectual_properties/${missing}/status`, { token: alice, body: { status: 'expired' } }), 404, 'not_found');
    failure(await call(app, 'PUT', `${path}/status`, { body: { status: 'expired' } }), 401, 'unauthorized');

    const same = failure(await call(app, 'PUT', `${path}/transfer`, { token: alice, body: { toOrganizationId: holder.id, transferDate: '2025-03-01' } }), 400, 'validation_failed');
    expect(same.issues![0]!.message).toBe('the new owner must differ from the current owner');
    failure(await call(app, 'PUT', `${path}/transfer`, { token: alice, body: { toOrganizationId: foreignOrg, transferDate: '2025-03-01' } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', `${path}/transfer`, { token: alice, body: { toOrganizationId: buyer.id } }), 400, 'validation_failed');
    const moved = okData('ipTransfer', await call(app, 'PUT', `${path}/transfer`, { token: alice, body: { toOrganizationId: buyer.id, transferDate: '2025-03-01', reason: '资产划转' } }));
    expect(moved.ownerOrganizationId).toBe(buyer.id);
    expect(moved.transfers).toEqual([expect.objectContaining({ fromOrganizationId: holder.id, fromOrganizationName: '测试控股集团', toOrganizationId: buyer.id, reason: '资产划转' })]);
    failure(await call(app, 'PUT', `/api/v1/intellectual_properties/${missing}/transfer`, { token: alice, body: { toOrganizationId: buyer.id, transferDate: '2025-03-01' } }), 404, 'not_found');
    failure(await call(app, 'PUT', `${path}/transfer`, { body: { toOrganizationId: buyer.id, transferDate: '2025-03-01' } }), 401, 'unauthorized');
    // The former holder is in the chain of title: it cannot be deleted.
    failure(await call(app, 'DELETE', `/api/v1/intellectual_property_organizations/${holder.id}`, { token: alice }), 409, 'conflict');
  });

  it('adds, edits and deletes life records', async () => {
    const path = `/api/v1/intellectual_properties/${property.id}/record`;
    const added = okData('ipRecordCreate', await call(app, 'POST', path, { token: alice, body: { kind: 'annual_fee', recordDate: '2025-04-01', title: '第一年年费' } }));
    const record = added.records[0]!;
    expect(record).toMatchObject({ kind: 'annual_fee', title: '第一年年费', content: '', version: 1 });
    failure(await call(app, 'POST', path, { token: alice, body: { kind: 'party', recordDate: '2025-04-01', title: 'x' } }), 400, 'validation_failed');
    failure(await call(app, 'POST', path, { token: alice, body: { kind: 'other', recordDate: '2025-04-01', title: '' } }), 400, 'validation_failed');
    failure(await call(app, 'POST', `/api/v1/intellectual_properties/${missing}/record`, { token: alice, body: { kind: 'other', recordDate: '2025-04-01', title: 'x' } }), 404, 'not_found');
    failure(await call(app, 'POST', path, { body: { kind: 'other', recordDate: '2025-04-01', title: 'x' } }), 401, 'unauthorized');

    const edited = okData('ipRecordUpdate', await call(app, 'PUT', `${path}/${record.id}`, { token: alice, body: { kind: 'annual_fee', recordDate: '2025-04-02', title: '年费', content: '已缴', version: 1 } }));
    expect(edited.records[0]).toMatchObject({ recordDate: '2025-04-02', content: '已缴', version: 2 });
    failure(await call(app, 'PUT', `${path}/${record.id}`, { token: alice, body: { kind: 'annual_fee', recordDate: '2025-04-02', title: '年费', version: 1 } }), 409, 'conflict');
    failure(await call(app, 'PUT', `${path}/${missing}`, { token: alice, body: { kind: 'other', recordDate: '2025-04-02', title: 'x' } }), 404, 'not_found');
    failure(await call(app, 'PUT', `${path}/${record.id}`, { body: { kind: 'other', recordDate: '2025-04-02', title: 'x' } }), 401, 'unauthorized');
    failure(await call(app, 'DELETE', `${path}/${missing}`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'DELETE', `${path}/${record.id}`), 401, 'unauthorized');
    expect(okData('ipRecordDelete', await call(app, 'DELETE', `${path}/${record.id}`, { token: alice })).records).toEqual([]);
  });

  it('imports JSON rows or CSV all or nothing, naming the row and field of each error', async () => {
    const before = await propertyCount();
    const good = { name: '华辰', type: 'trademark', registrationNumber: '第90000001号', ownerOrganizationName: '受让方 100%_公司', status: 'registered', registrationDate: '2024-05-01' };
    const bad = failure(await callEndpoint(app, 'ipImport', { token: alice, body: { rows: [
      good,
      { ...good, registrationNumber: '第90000001号' },
      { ...good, registrationNumber: '第90000003号', type: 'brand', ownerOrganizationName: '无此公司' },
      { ...good, registrationNumber: 'ZL202410000001.1', type: 'patent' },
      { ...good, registrationNumber: '第90000005号', ownerOrganizationName: '无此公司' },
    ] } }), 400, 'validation_failed');
    expect(bad.issues).toEqual(expect.arrayContaining([
      { path: 'row 2: registrationNumber', message: 'duplicates row 1' },
      expect.objectContaining({ path: 'row 3: type' }),
      { path: 'row 4: registrationNumber', message: 'already registered' },
      { path: 'row 5: ownerOrganizationName', message: 'unknown organization 无此公司' },
    ]));
    expect(await propertyCount()).toBe(before);

    const csv = [
      'name,type,registrationNumber,ownerOrganizationName,status,applicationDate,registrationDate,expirationDate,remark',
      '"华辰, 合同",trademark,第90000011号,"受让方 100%_公司",registered,2023-01-01,2024-01-01,2034-01-01,"含""引号"""',
      '合同管理系统V2.0,software_copyright,2024SR9999999,测试控股集团,filed,2024-06-01,,,',
    ].join('\r\n');
    const { template } = { template: okData('ipTemplateUrl', await callEndpoint(app, 'ipTemplateUrl', { token: alice, query: { type: 'trademark' } })) };
    expect(template.url.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(template.url.split(',').slice(1).join(','))).toMatch(/^\uFEFFName,Type,Registration number,Owner,Status,.*\r\n.*,Trademark,.*,Registered,/);
    expect(template.fileName).toBe('Intellectual property import template (Trademark).csv');
    const zhTemplate = okData('ipTemplateUrl', await callEndpoint(app, 'ipTemplateUrl', { token: alice, query: { type: 'trademark', language: 'zh-CN' } }));
    const zhCsv = decodeURIComponent(zhTemplate.url.split(',').slice(1).join(','));
    expect(zhCsv).toMatch(/^\uFEFF名称,类型,登记号,权利人,状态,申请日期,登记日期,到期日期,备注\r\n.*,商标,.*,已登记,/);
    expect(zhTemplate.fileName).toBe('知识产权导入模板（商标）.csv');
    failure(await callEndpoint(app, 'ipTemplateUrl', { token: alice, query: { type: 'trademark', language: 'fr' } }), 400, 'validation_failed');
    expect(okData('ipImport', await callEndpoint(app, 'ipImport', { token: alice, body: { csv } }))).toEqual({ imported: 2 });
    // The Chinese template filled in comes back in Chinese: headers, type and status by their labels.
    const zhRow = '华辰标识,商标,第90000012号,测试控股集团,已申请,2024-02-01,,,';
    expect(okData('ipImport', await callEndpoint(app, 'ipImport', { token: alice, body: { csv: `${zhCsv.split('\r\n')[0]}\r\n${zhRow}` } }))).toEqual({ imported: 1 });
    expect(okData('ipList', await callEndpoint(app, 'ipList', { token: alice, query: { q: '第90000012号' } })).list[0]).toMatchObject({ type: 'trademark', status: 'filed' });
    const imported = okData('ipList', await callEndpoint(app, 'ipList', { token: alice, query: { q: '第90000011号' } }));
    expect(imported.list[0]).toMatchObject({ name: '华辰, 合同', remark: '含"引号"', status: 'registered' });

    const csvBad = failure(await callEndpoint(app, 'ipImport', { token: alice, body: { csv: 'name,type,colour\nx,patent,red' } }), 400, 'validation_failed');
    expect(csvBad.message).toContain('colour');
    const rowBad = failure(await callEndpoint(app, 'ipImport', { token: alice, body: { csv: `${csv.split('\r\n')[0]}\r\n,patent,N1,测试控股集团,filed,,,,` } }), 400, 'validation_failed');
    expect(rowBad.issues).toContainEqual({ path: 'row 1: name', message: 'please enter the name' });
    failure(await callEndpoint(app, 'ipImport', { token: alice, body: { rows: [] } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipImport', { token: alice, body: { rows: [good], csv } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipImport', { body: { rows: [good] } }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'ipTemplateUrl', { token: alice, query: { type: 'x' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'ipTemplateUrl', { query: { type: 'patent' } }), 401, 'unauthorized');
    expect(await propertyCount()).toBe(before + 3);
  });

  it('deletes rights and unused organisations, hiding other organisations’ rows', async () => {
    const [foreignRight] = await fixture.db.insert(intellectualProperties).values({
      id: '01900000-0000-7000-8000-0000000000f2', organisationId: 'other-org', name: 'theirs', type: 'patent', registrationNumber: 'F1', ownerOrganizationId: foreignOrg, status: 'filed',
    }).returning();
    failure(await call(app, 'GET', `/api/v1/intellectual_properties/${foreignRight!.id}`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'DELETE', `/api/v1/intellectual_properties/${foreignRight!.id}`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'DELETE', `/api/v1/intellectual_property_organizations/${foreignOrg}`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'DELETE', `/api/v1/intellectual_properties/${property.id}`), 401, 'unauthorized');
    expect(okData('ipDelete', await call(app, 'DELETE', `/api/v1/intellectual_properties/${property.id}`, { token: alice }))).toEqual({ deleted: true });
    failure(await call(app, 'DELETE', `/api/v1/intellectual_properties/${property.id}`, { token: alice }), 404, 'not_found');
    const spare = okData('ipOrganizationCreate', await callEndpoint(app, 'ipOrganizationCreate', { token: alice, body: { name: '空壳公司' } }));
    expect(okData('ipOrganizationDelete', await call(app, 'DELETE', `/api/v1/intellectual_property_organizations/${spare.id}`, { token: alice }))).toEqual({ deleted: true });
    failure(await call(app, 'DELETE', `/api/v1/intellectual_property_organizations/${spare.id}`), 401, 'unauthorized');
  });
});
