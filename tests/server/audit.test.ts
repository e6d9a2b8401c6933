import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { fileUploadPath, uploadChunkContentType, uploadOffsetHeader, uploadSessionsPath } from '../../src-shared/api/files';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import { PartySubtype, PartyType } from '../../src-shared/domain/enums';
import { mutations, rowKey, type MutationName } from '../../src-shared/sync/mutations';
import { appendAuditEvents, pruneAuditEvents, verifyAuditChain } from '../../src-server/audit/chain';
import { changedFields, redacted } from '../../src-server/audit/record';
import { isAuditedWrite, notAudited } from '../../src-server/audit/rest';
import { fileWriteRoutes } from '../../src-server/files/routes';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn, TestClock } from './support';

// The audit trail (issue 32, item 4): every write of the endpoint map, every write route outside
// it (the file routes) and every mutation of the sync registry records exactly one event when it
// applies and none when it is refused; the hash chain detects an event changed or removed in the
// database.

const password = (username: string) => demoUsers.find((u) => u.username === username)!.password;
const missing = '01900000-0000-7000-8000-000000000000';

describe('which writes are audited', () => {
  it('every POST, PUT and DELETE of the map, but the writes named with their reason', () => {
    const writes = (Object.keys(endpoints) as EndpointName[]).filter((name) => endpoints[name].method !== 'GET');
    const unaudited = writes.filter((name) => !isAuditedWrite(name)).sort();
    expect(unaudited).toEqual(Object.keys(notAudited).sort());
  });

  it('records that a secret changed, never its value, and a form field rather than the whole form', () => {
    const changes = changedFields(
      { name: 'a', passwordHash: 'old', formValues: { subject: 's', remark: 'r' }, version: 1 },
      { name: 'a', passwordHash: 'new', formValues: { subject: 's', remark: 'r2' }, version: 2 },
    );
    expect(changes).toEqual({ passwordHash: { before: redacted, after: redacted }, 'formValues.remark': { before: 'r', after: 'r2' } });
  });
});

describeOnDatabases('audit trail', (fixture) => {
  const clock = new TestClock();
  let app: FastifyInstance;
  let admin: string;
  let alice: string;
  let organisationId: string;
  let draftId: string;
  let filesDir: string;
  /** Every POST, PUT, PATCH and DELETE route the server registers, as "METHOD /path". */
  const writeRoutes: string[] = [];

  const url = (name: EndpointName, params: Record<string, string> = {}) => endpoints[name].path.replace(/:(\w+)/g, (_, key: string) => params[key] ?? missing);
  const eventsOf = (column: 'request_id' | 'mutation_id', id: string) => queryRows<{ seq: number; action: string }>(fixture.db, sql`select seq, action from audit_events where ${sql.raw(column)} = ${id}`);
  const verify = () => verifyAuditChain(fixture.db, organisationId);

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 30, seed: 12 });
    filesDir = await mkdtemp(path.join(tmpdir(), 'contract-audit-files-'));
    app = fixture.server(clock, { files: { dir: filesDir } });
    // Every route is registered in a plugin, when the server first starts: this hook sees them all.
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) writeRoutes.push(`${method} ${route.url}`);
    });
    admin = (await signIn(app, 'admin', password('admin'))).token;
    alice = (await signIn(app, 'alice', password('alice'))).token;
    [{ organisation_id: organisationId }] = await queryRows<{ organisation_id: string }>(fixture.db, sql`select organisation_id from users where username = 'admin'`) as [{ organisation_id: string }];
    const [draft] = await queryRows<{ id: string }>(fixture.db, sql`select id from contracts where status = 1 order by id limit 1`);
    draftId = draft!.id;
  });

  describe('every audited write of the endpoint map', () => {
    // Writes that succeed here; the others are refused (a missing row, a body that does not
    // validate) and must record nothing.
    const samples: Partial<Record<EndpointName, { params?: Record<string, string>; body?: unknown }>> = {
      counterpartyCreate: { body: { type: PartyType.Outer, subtype: PartySubtype.Organization, name: 'Audit Ltd.' } },
      projectCreate: { body: { name: 'audited project' } },
      ipOrganizationCreate: { body: { name: 'audited organization' } },
      ledgerSceneCreate: { body: { name: 'audited scene' } },
      organisationSettingsUpdate: { body: { creditPlatformEnabled: true } },
      auditSettingsUpdate: { body: { retentionDays: 3650 } },
    };
    let applied = 0;

    const audited = (Object.keys(endpoints) as EndpointName[]).filter(isAuditedWrite).filter((name) => name !== 'logout');
    it.each(audited)('%s records one event when it applies, none when refused', async (name) => {
      const sample = samples[name] ?? {};
      const requestId = uuidv7();
      const result = await call(app, endpoints[name].method, url(name, sample.params), { token: admin, body: sample.body ?? {}, headers: { 'x-request-id': requestId, 'x-client-id': 'laptop-7' } });
      if (samples[name]) expect(result.status, JSON.stringify(result.json)).toBe(200);
      const events = await eventsOf('request_id', requestId);
      expect(events.map((e) => e.action)).toEqual(result.status === 200 ? [name] : []);
      if (result.status === 200) applied += 1;
    });

    it('saw the writes of the samples apply', () => {
      expect(applied).toBeGreaterThanOrEqual(Object.keys(samples).length);
    });

    it('logout records one event under the session, without its tokens', async () => {
      const { token } = await signIn(app, 'bob', password('bob'));
      const requestId = uuidv7();
      okData('logout', await callEndpoint(app, 'logout', { token, headers: { 'x-request-id': requestId } }));
      const [event] = await queryRows<{ entity: string; changes: unknown }>(fixture.db, sql`select entity, changes from audit_events where request_id = ${requestId}`);
      expect(event?.entity).toBe('session');
      expect(JSON.stringify(event?.changes)).not.toContain(token);
    });
  });

  it('records who, which device, and only the changed fields with their values before and after', async () => {
    const project = okData('projectCreate', await call(app, 'POST', url('projectCreate'), { token: alice, body: { name: 'before audit' } }));
    const requestId = uuidv7();
    okData('projectUpdate', await call(app, 'PUT', url('projectUpdate', { id: project.id }), { token: alice, body: { name: 'after audit' }, headers: { 'x-request-id': requestId, 'x-client-id': 'laptop-9' } }));
    const page = okData('auditEvents', await callEndpoint(app, 'auditEvents', { token: admin, query: { entityId: project.id, device: 'laptop-9' } }));
    expect(page.count).toBe(1);
    expect(page.list[0]).toMatchObject({ entity: 'project', entityId: project.id, action: 'projectUpdate', device: 'laptop-9', userName: expect.any(String), requestId, editedAt: null });
    expect(page.list[0]!.changes).toEqual({ name: { before: 'before audit', after: 'after audit' } });
    // Filtered by user: alice's events only.
    const [{ id: aliceId }] = (await queryRows<{ id: string }>(fixture.db, sql`select id from users where username = 'alice'`)) as [{ id: string }];
    const mine = okData('auditEvents', await callEndpoint(app, 'auditEvents', { token: admin, query: { userId: aliceId, pageSize: 500 } }));
    expect(mine.list.length).toBeGreaterThanOrEqual(2);
    expect(mine.list.every((event) => event.userId === aliceId)).toBe(true);
  });

  afterAll(() => rm(filesDir, { recursive: true, force: true }));

  describe('every write route outside the endpoint map', () => {
    const inMap = new Set(Object.values(endpoints).map((endpoint) => `${endpoint.method} ${endpoint.path}`));
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const multipart = (filename: string) => {
      const boundary = '----audit-test-boundary';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        pdf,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    };
    /** Sends the request under a new request id; answers its status and the actions of the events it recorded. */
    const audited = async (request: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: unknown }) => {
      const requestId = uuidv7();
      const response = await app.inject({ ...request, headers: { authorization: `Bearer ${alice}`, 'x-request-id': requestId, ...request.headers }, payload: request.payload as never });
      const events = await queryRows<{ action: string; entity: string; entity_id: string; changes: Record<string, unknown> }>(fixture.db, sql`select action, entity, entity_id, changes from audit_events where request_id = ${requestId}`);
      return { status: response.statusCode, json: response.json() as { data?: { id?: string } }, events };
    };

    it('are all named with the event they record', () => {
      const outside = [...new Set(writeRoutes)].filter((route) => !inMap.has(route)).sort();
      expect(outside.length).toBeGreaterThan(0);
      expect(outside).toEqual(Object.keys(fileWriteRoutes).sort());
    });

    it('a multipart upload records one event for the stored file, none when refused', async () => {
      const stored = await audited({ method: 'POST', url: fileUploadPath, ...multipart('signed.pdf') });
      expect(stored.status, JSON.stringify(stored.json)).toBe(200);
      expect(stored.events).toEqual([expect.objectContaining({ action: 'fileUpload', entity: 'file', entity_id: stored.json.data?.id })]);
      expect(stored.events[0]!.changes).toMatchObject({ name: { before: null, after: 'signed.pdf' }, size: { before: null, after: pdf.length } });
      const refused = await audited({ method: 'POST', url: fileUploadPath, ...multipart('tool.exe') });
      expect(refused.status).toBe(400);
      expect(refused.events).toEqual([]);
    });

    it('a resumable upload records one event when it completes, one when an unfinished one is dropped, none otherwise', async () => {
      const id = uuidv7();
      const body = { id, name: 'resumed.pdf', size: pdf.length, sha256: sha256(pdf), purpose: 'archive' };
      const begun = await audited({ method: 'POST', url: uploadSessionsPath, payload: body });
      expect(begun.status, JSON.stringify(begun.json)).toBe(200);
      expect(begun.events).toEqual([]);
      const chunk = { method: 'PATCH' as const, url: `${uploadSessionsPath}/${id}`, headers: { 'content-type': uploadChunkContentType, [uploadOffsetHeader]: '0' }, payload: pdf };
      const completed = await audited(chunk);
      expect(completed.status, JSON.stringify(completed.json)).toBe(200);
      expect(completed.events).toEqual([expect.objectContaining({ action: 'fileUploadComplete', entity: 'file', entity_id: id })]);
      // Begun again or sent again once stored: nothing more is recorded.
      expect((await audited({ method: 'POST', url: uploadSessionsPath, payload: body })).events).toEqual([]);
      expect((await audited(chunk)).events).toEqual([]);
      expect((await audited({ method: 'DELETE', url: `${uploadSessionsPath}/${id}` })).events).toEqual([]);

      const dropped = uuidv7();
      expect((await audited({ method: 'POST', url: uploadSessionsPath, payload: { ...body, id: dropped } })).status).toBe(200);
      const cancelled = await audited({ method: 'DELETE', url: `${uploadSessionsPath}/${dropped}` });
      expect(cancelled.status).toBe(200);
      expect(cancelled.events).toEqual([expect.objectContaining({ action: 'fileUploadCancel', entity: 'upload', entity_id: dropped })]);
      const again = await audited({ method: 'DELETE', url: `${uploadSessionsPath}/${dropped}` });
      expect(again.status).toBe(404);
      expect(again.events).toEqual([]);
    });
  });

  describe('every mutation of the sync registry', () => {
    const clientId = uuidv7();
    let seq = 0;
    const push = async (mutation: Omit<MutationEnvelope, 'seq'>): Promise<MutationResult> => {
      seq += 1;
      const body = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: [{ ...mutation, seq }] };
      return okData('syncPush', await callEndpoint(app, 'syncPush', { token: admin, body })).results[0]!;
    };

    it.each(Object.keys(mutations) as MutationName[])('%s records one event when it applies, none when refused', async (name) => {
      const id = uuidv7();
      const createdAt = '2026-11-01T08:30:00.000Z';
      const [contract] = await queryRows<{ version: number }>(fixture.db, sql`select version from contracts where id = ${draftId}`);
      const samples: Partial<Record<MutationName, Pick<MutationEnvelope, 'args' | 'baseVersions'>>> = {
        'contract.update': { args: { id: draftId, patch: { name: `offline ${id}` } }, baseVersions: { [rowKey('contract', draftId)]: contract!.version } },
        'scene.create': { args: { id: uuidv7(), name: `offline scene ${id}` }, baseVersions: {} },
      };
      const sample = samples[name] ?? { args: {}, baseVersions: {} };
      const result = await push({ id, name, createdAt, ...sample });
      if (samples[name]) expect(result.status, JSON.stringify(result)).toBe('applied');
      const events = await queryRows<{ action: string; device: string; edited_at: Date | string | null }>(fixture.db, sql`select action, device, edited_at from audit_events where mutation_id = ${id}`);
      expect(events.map((e) => e.action)).toEqual(result.status === 'applied' ? [name] : []);
      if (result.status === 'applied') {
        expect(events[0]!.device).toBe(clientId);
        expect(new Date(events[0]!.edited_at!).toISOString()).toBe(createdAt);
      }
      // A replay of the same mutation id applies nothing and records nothing more.
      await push({ id, name, createdAt, ...sample });
      expect(await eventsOf('mutation_id', id)).toHaveLength(events.length);
    });
  });

  it('a push editing one row twice records each edit against the row as the one before left it', async () => {
    const [contract] = await queryRows<{ version: number; name: string }>(fixture.db, sql`select version, name from contracts where id = ${draftId}`);
    const key = rowKey('contract', draftId);
    const ids = [uuidv7(), uuidv7()];
    // The second edit is based on the version the first one makes: its "before" is read after the first ran.
    const body = {
      protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: uuidv7(),
      mutations: [
        { id: ids[0]!, seq: 1, name: 'contract.update', args: { id: draftId, patch: { name: 'twice, first' } }, baseVersions: { [key]: contract!.version } },
        { id: ids[1]!, seq: 2, name: 'contract.update', args: { id: draftId, patch: { name: 'twice, second' } }, baseVersions: { [key]: contract!.version + 1 } },
      ],
    };
    const results = okData('syncPush', await callEndpoint(app, 'syncPush', { token: admin, body })).results;
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied']);
    const changes = await Promise.all(ids.map(async (id) => (await queryRows<{ changes: Record<string, unknown> }>(fixture.db, sql`select changes from audit_events where mutation_id = ${id}`))[0]?.changes));
    expect(changes).toEqual([{ name: { before: contract!.name, after: 'twice, first' } }, { name: { before: 'twice, first', after: 'twice, second' } }]);
  });

  it('shows a contract\'s events in its history, to whoever may see the contract', async () => {
    const history = okData('contractAuditEvents', await call(app, 'GET', url('contractAuditEvents', { id: draftId }), { token: admin }));
    expect(history.list.map((event) => event.action)).toContain('contract.update');
    expect(history.list.every((event) => event.entity === 'contract' && event.entityId === draftId)).toBe(true);
    failure(await call(app, 'GET', url('contractAuditEvents', { id: missing }), { token: admin }), 404, 'not_found');
  });

  it('keeps one chain without gaps under concurrent writes', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => call(app, 'POST', url('projectCreate'), { token: i % 2 ? admin : alice, body: { name: `concurrent ${i}` } })));
    const seqs = (await queryRows<{ seq: number }>(fixture.db, sql`select seq from audit_events where organisation_id = ${organisationId} order by seq`)).map((r) => Number(r.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(await verify()).toMatchObject({ intact: true, checked: seqs.length, problem: null });
  });

  it('refuses the audit screen\'s routes to users who are not administrators', async () => {
    failure(await callEndpoint(app, 'auditEvents', { token: alice }), 403, 'forbidden');
    failure(await callEndpoint(app, 'auditVerify', { token: alice }), 403, 'forbidden');
    failure(await callEndpoint(app, 'auditSettingsUpdate', { token: alice, body: { retentionDays: 1 } }), 403, 'forbidden');
  });

  it('refuses to change an event through SQL while its trigger stands', async () => {
    await expect(fixture.db.execute(sql`update audit_events set user_name = 'someone else' where seq = 1`)).rejects.toThrow();
  });

  describe('tampering in the database', () => {
    it('detects a changed event, names it, and says so through the admin route and the script', async () => {
      const [{ n }] = (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from audit_events where organisation_id = ${organisationId}`)) as [{ n: number }];
      const victim = Math.floor(n / 2);
      await fixture.db.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
      await fixture.db.execute(sql`update audit_events set changes = '{"name":{"before":"x","after":"y"}}'::jsonb where organisation_id = ${organisationId} and seq = ${victim}`);
      await fixture.db.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
      const checked = okData('auditVerify', await callEndpoint(app, 'auditVerify', { token: admin }));
      expect(checked).toMatchObject({ intact: false, checked: victim - 1, problem: { seq: victim, kind: 'changed' } });
      if (fixture.kind === 'PostgreSQL') {
        const run = promisify(execFile)('npx', ['tsx', 'src-server/audit/cli.ts'], { env: { ...process.env, DATABASE_URL: databaseUrlOf(fixture.handle.description) } });
        await expect(run).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining(`event ${victim} was changed`) });
      }
    }, 120_000);

    it('detects a removed event by the broken link of the next one', async () => {
      const [{ n }] = (await queryRows<{ n: number }>(fixture.db, sql`select max(seq)::int as n from audit_events where organisation_id = ${organisationId}`)) as [{ n: number }];
      // The changed event of the test before goes: the chain is intact again up to the hole.
      await fixture.db.execute(sql`delete from audit_events where organisation_id = ${organisationId} and seq >= ${Math.floor(n / 2)} and seq < ${n - 1}`);
      const result = await verify();
      expect(result).toMatchObject({ intact: false, problem: { seq: n - 1, kind: 'removed' } });
    });
  });

  it('prunes past the retention and still verifies from the oldest kept event', async () => {
    await fixture.db.execute(sql`delete from audit_events where organisation_id = ${organisationId}`);
    const entry = (i: number, appliedAt: Date) => ({ organisationId, userId: 'u', userName: 'U', device: 'd', entity: 'project', entityId: `p${i}`, action: 'projectCreate', changes: {}, editedAt: null, appliedAt, mutationId: null, requestId: `r${i}` });
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    await fixture.db.transaction((tx) => appendAuditEvents(tx, [0, 1, 2, 3, 4].map((i) => entry(i, new Date(now - (10 - i) * day)))));
    await pruneAuditEvents(fixture.db, organisationId, new Date(now - 7.5 * day));
    const result = await verify();
    expect(result).toMatchObject({ intact: true, checked: 2, fromSeq: 4 });
  });
});

/** The PostgreSQL address of a fixture, from the description the database handle gives (no password in tests). */
function databaseUrlOf(description: string): string {
  const base = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
  base.pathname = description.slice(description.lastIndexOf('/'));
  return base.toString();
}
