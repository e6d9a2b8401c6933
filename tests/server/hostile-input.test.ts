import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { PartySubtype, PartyType } from '../../src-shared/domain/enums';
import { maxJsonDepth } from '../../src-shared/api/endpoint';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { nestsDeeperThan, tooDeepMessage } from '../../src-server/http/json-body';
import { apiResponseHeaders } from '../../src-server/http/response-headers';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn, type CallResult } from './support';

// Hostile input against every operation of the map (issue 11, "Server hardening"): whatever is
// sent, the answer is a 4xx error envelope or a success, never a 500.

const admin = demoUsers.find((u) => u.role === 'admin')!;
const missing = '01900000-0000-7000-8000-000000000000';
const names = Object.keys(endpoints) as EndpointName[];
const jsonWrites = names.filter((name) => endpoints[name].method !== 'GET');

/** `{"a":{"a":…}}` nested `depth` levels deep around `inner`. */
const nested = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
const url = (name: EndpointName) => endpoints[name].path.replace(/:(\w+)/g, missing);

type JsonSchema = { [key: string]: unknown };
type Extreme = 'high' | 'low' | 'odd';

const describeSchema = (schema: z.ZodType): JsonSchema => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Text the schema's pattern probably wants, but at an edge: an impossible date, a far one. */
function edgeText(schema: JsonSchema, extreme: Extreme): string {
  const pattern = String(schema.pattern ?? '');
  if (schema.format === 'uuid') return uuidv7();
  if (schema.format === 'date-time') return { high: '9999-12-31T23:59:59.999Z', low: '0001-01-01T00:00:00Z', odd: '2025-02-29T25:61:00Z' }[extreme];
  if (schema.format === 'date' || /\\d\{4\}-/.test(pattern)) return { high: '9999-12-31', low: '0000-01-01', odd: '2025-02-30' }[extreme];
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 20_000;
  return { high: '字'.repeat(max), low: typeof schema.minLength === 'number' ? 'x'.repeat(schema.minLength) : '', odd: `%_\\'"\u2028😀\ud800`.slice(0, max) }[extreme];
}

/**
 * A value of the schema's shape at its edges: the largest or smallest number it allows (or one
 * beyond what a database column holds when it sets no bound), the longest or shortest text, every
 * optional property filled in. These pass the schema and reach the handlers and the database.
 */
function extremeValue(schema: JsonSchema, extreme: Extreme, depth = 0): unknown {
  if (depth > 12) return null;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return extremeValue(extreme === 'low' ? branches.at(-1)! : branches[0]!, extreme, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return extreme === 'low' ? schema.enum.at(-1) : schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const bound = extreme === 'low' ? (schema.minimum ?? schema.exclusiveMinimum) : (schema.maximum ?? schema.exclusiveMaximum);
      if (typeof bound === 'number') return bound;
      if (extreme === 'odd') return type === 'integer' ? 2 ** 53 - 1 : 1e-320;
      return (extreme === 'low' ? -1 : 1) * (type === 'integer' ? 2 ** 31 : 1e308);
    }
    case 'string':
      return edgeText(schema, extreme);
    case 'boolean':
      return extreme !== 'low';
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 0);
      const items = (schema.items ?? {}) as JsonSchema;
      return Array.from({ length: count }, () => extremeValue(items, extreme, depth + 1));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(properties)) value[key] = extremeValue(property, extreme, depth + 1);
      const additional = schema.additionalProperties;
      if (Object.keys(properties).length === 0 && additional && typeof additional === 'object') value.k = extremeValue(additional as JsonSchema, extreme, depth + 1);
      return value;
    }
    default:
      return { high: 1e308, low: '', odd: [] }[extreme];
  }
}

/** Values of the wrong type or out of any range, put in place of one property at a time. */
const wrongValues: unknown[] = [1e308, -1e308, 2 ** 63, 1.5, '9'.repeat(400), 'nul\u0000byte', [], {}, true, null, JSON.parse(nested(20))];

/** Path parameters of existing rows, so writes reach past the "not found" check; a missing id elsewhere. */
const rowsByPath: [RegExp, string][] = [
  [/^\/api\/v1\/contracts\/:id/, 'contracts'],
  [/^\/api\/v1\/templates\/:id/, 'templates'],
  [/^\/api\/v1\/performances\/task\/:id/, 'performance_tasks'],
  [/^\/api\/v1\/performances\/:id/, 'performances'],
  [/^\/api\/v1\/counterpart(ies)?\/:id/, 'counterparties'],
  [/^\/api\/v1\/project\/:id/, 'projects'],
  [/^\/api\/v1\/intellectual_property_organizations\/:id/, 'ip_organizations'],
  [/^\/api\/v1\/intellectual_properties\/:id/, 'intellectual_properties'],
];

describe('the depth scan of a JSON text', () => {
  it('counts arrays and objects, not brackets inside strings or after escaped quotes', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(50)}"}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"${'{'.repeat(50)}"}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",${'"b":{'.repeat(4)}1${'}'.repeat(4)}}`, 3)).toBe(true);
  });
});

describeOnDatabases('hostile input', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  let filesDir: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 5, seed: 4 });
    // Uploads the probe gets through land in a scratch folder, not the demo server's.
    filesDir = await mkdtemp(join(tmpdir(), 'hostile-input-files-'));
    app = fixture.server(undefined, { files: { dir: filesDir } });
    token = (await signIn(app, admin.username, admin.password)).token;
  });
  afterAll(() => rm(filesDir, { recursive: true, force: true }));

  it(`refuses a body nested deeper than ${maxJsonDepth} with 400 on every JSON write, sign-in included`, async () => {
    const deep = nested(5000);
    for (const name of jsonWrites) {
      const error = failure(await call(app, endpoints[name].method, url(name), { token, rawBody: deep }), 400, 'bad_request');
      expect(error.message, name).toBe(tooDeepMessage);
    }
    failure(await callEndpoint(app, 'login', { rawBody: `[${deep}]` }), 400, 'bad_request');
  });

  it('reads a body at the limit, and brackets inside strings do not count', async () => {
    // At the limit the body is parsed and reaches the schema, which refuses the unknown field.
    const atLimit = `{"username":"admin","password":"x","extra":${nested(maxJsonDepth - 1)}}`;
    expect(failure(await callEndpoint(app, 'login', { rawBody: atLimit }), 400, 'validation_failed').message).toContain('"extra"');
    const bracketed = await callEndpoint(app, 'login', { body: { username: 'nobody', password: '{['.repeat(100) } });
    failure(bracketed, 401, 'invalid_credentials');
    expect(okData('login', await callEndpoint(app, 'login', { body: { username: admin.username, password: admin.password } })).user.role).toBe('admin');
  });

  it('refuses text the database cannot store and days that do not exist, naming the field', async () => {
    for (const name of ['a\u0000b', 'lone \ud800 surrogate', 'lone \udc00 low']) {
      const error = failure(await callEndpoint(app, 'projectCreate', { token, body: { name } }), 400, 'validation_failed');
      expect(error.issues?.map((issue) => issue.path)).toEqual(['name']);
    }
    okData('projectCreate', await callEndpoint(app, 'projectCreate', { token, body: { name: 'paired 😀 surrogates' } }));
    const party = { type: PartyType.Outer, subtype: PartySubtype.Organization, name: 'Dates Ltd.' };
    for (const day of ['2025-02-30', '0000-01-01', '2025-13-01']) {
      const error = failure(await callEndpoint(app, 'counterpartyCreate', { token, body: { ...party, registration: { establishmentDate: day } } }), 400, 'validation_failed');
      expect(error.issues?.map((issue) => issue.path)).toEqual(['registration.establishmentDate']);
    }
    okData('counterpartyCreate', await callEndpoint(app, 'counterpartyCreate', { token, body: { ...party, registration: { establishmentDate: '2024-02-29' } } }));
  });

  it('sends the hardening headers with successes, failures, unknown routes and refused bodies', async () => {
    const responses = [
      await callEndpoint(app, 'me', { token }),
      await callEndpoint(app, 'login', { body: { username: admin.username, password: admin.password } }),
      await callEndpoint(app, 'me'),
      await call(app, 'GET', '/api/v1/nothing-here'),
      await callEndpoint(app, 'login', { rawBody: nested(100) }),
      await callEndpoint(app, 'login', { rawBody: '{' }),
      await call(app, 'GET', '/api/v1/openapi.json'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 404, 400, 400, 200]);
    for (const response of responses) {
      expect(response.headers).toMatchObject(apiResponseHeaders);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('never answers 500, whatever the query, the path or the body of any operation', async () => {
    const existing = new Map<string, string>();
    for (const [, table] of rowsByPath) {
      const [row] = await queryRows<{ id: string }>(fixture.db, sql.raw(`select id::text as id from ${table} order by id limit 1`));
      if (row) existing.set(table, row.id);
    }
    const [record] = await queryRows<{ id: string }>(fixture.db, sql`select id::text as id from ip_records order by id limit 1`);
    const realPath = (path: string) => {
      const table = rowsByPath.find(([pattern]) => pattern.test(path))?.[1];
      return path.replace(':recordId', record?.id ?? missing).replace(/:(\w+)/g, (_, key: string) => (key === 'id' && table && existing.get(table)) || missing);
    };
    const serverErrors: string[] = [];
    const probe = async (label: string, request: Promise<CallResult>) => {
      const result = await request;
      if (result.status >= 500) serverErrors.push(`${label}: ${result.status} ${JSON.stringify(result.json).slice(0, 300)}`);
    };
    // The raw file routes (multipart in, bytes out) outside the map.
    const files = '/api/v1/files';
    for (const rawBody of [nested(5000), '{}', 'null', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF']) {
      for (const contentType of ['application/json', 'multipart/form-data; boundary=x', 'multipart/form-data']) {
        await probe(`upload ${contentType} ${rawBody.slice(0, 30)}`, call(app, 'POST', files, { token, rawBody, headers: { 'content-type': contentType } }));
      }
    }
    for (const query of [{ purpose: 'nul\u0000byte' }, { contractId: '9'.repeat(400) }] as Record<string, string>[]) {
      await probe(`upload query ${JSON.stringify(query)}`, call(app, 'POST', files, { token, query, rawBody: '{}' }));
    }
    for (const id of ['not-a-uuid', `${missing}%00`, '%ff%fe', '..%2F..%2Fetc%2Fpasswd']) {
      const result = await app.inject({ method: 'GET', url: `${files}/${id}`, headers: { authorization: `Bearer ${token}` } });
      if (result.statusCode >= 500) serverErrors.push(`download ${id}: ${result.statusCode} ${result.body.slice(0, 300)}`);
    }
    // Deletes last, so the other writes still find their rows; sign-out at the very end, as it revokes the token.
    const rank = (name: EndpointName) => (name === 'logout' ? 2 : Number(endpoints[name].method === 'DELETE'));
    const ordered = [...names].sort((a, b) => rank(a) - rank(b));
    for (const name of ordered) {
      const { method, path } = endpoints[name];
      const queryProperties = Object.keys((describeSchema(endpoints[name].query).properties ?? {}) as object);
      for (const key of queryProperties) {
        for (const value of ['nul\u0000byte', '9'.repeat(400), '1e308', '-1', '2025-02-30', '[]']) {
          await probe(`${name} query ${key}=${JSON.stringify(value)}`, call(app, method, realPath(path), { token, query: { [key]: value } }));
        }
      }
      await probe(`${name} NUL in the query string`, call(app, method, `${realPath(path)}?q=%00&x=%00`, { token }));
      if (path.includes(':')) {
        await probe(`${name} a path id that is no UUID`, call(app, method, path.replace(/:(\w+)/g, 'not-a-uuid'), { token }));
        await probe(`${name} a NUL in the path id`, call(app, method, path.replace(/:(\w+)/g, `${missing}%00`), { token }));
      }
      if (method === 'GET') continue;
      for (const body of [null, [], 'text', 1e308, true, {}]) {
        await probe(`${name} body ${JSON.stringify(body)}`, call(app, method, url(name), { token, rawBody: JSON.stringify(body) }));
      }
      const bodySchema = describeSchema(endpoints[name].body);
      for (const extreme of ['high', 'low', 'odd'] as const) {
        for (const target of new Set([url(name), realPath(path)])) {
          const body = extremeValue(bodySchema, extreme);
          await probe(`${name} ${extreme} body at ${target}: ${JSON.stringify(body).slice(0, 200)}`, call(app, method, target, { token, body }));
        }
      }
      const template = extremeValue(bodySchema, 'high');
      if (template && typeof template === 'object' && !Array.isArray(template)) {
        for (const key of Object.keys(template)) {
          for (const value of wrongValues) {
            const body = { ...template, [key]: value };
            await probe(`${name} ${key}=${JSON.stringify(value).slice(0, 40)}`, call(app, method, realPath(path), { token, body }));
          }
        }
      }
    }
    expect(serverErrors).toEqual([]);
  }, 600_000);
});
