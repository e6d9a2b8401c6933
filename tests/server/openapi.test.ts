import { afterAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { buildContractServer, type ServerDb } from '../../src-server/index';
import { openApiPath } from '../../src-server/http/openapi';

// The document is generated from the endpoint map; serving it needs no database.
const app = buildContractServer({} as ServerDb);
afterAll(() => app.close());

interface Operation {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
}

async function fetchDocument() {
  const response = await app.inject({ method: 'GET', url: openApiPath });
  expect(response.statusCode).toBe(200);
  return response.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
}

describe('OpenAPI document', () => {
  it('describes every endpoint of the shared map, by method and path, without a token', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    const described = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(described.sort()).toEqual([...Object.keys(endpoints), 'fileDownload', 'fileUpload'].sort());
    for (const name of Object.keys(endpoints) as EndpointName[]) {
      const { method, path, auth } = endpoints[name];
      const operation = document.paths[path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation?.operationId, name).toBe(name);
      expect(operation!.security.length > 0, `${name} needs a token`).toBe(auth);
    }
  });

  it('lists query parameters with their constraints and bodies of writes', async () => {
    const document = await fetchDocument();
    const list = document.paths['/api/v1/contracts']!.get!;
    expect(list.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:pageNum', 'query:pageSize', 'query:status', 'query:q']);
    expect(document.paths['/api/v1/sync/push']!.post!.requestBody).toBeDefined();
    expect(document.paths['/api/v1/auth/me']!.get!.requestBody).toBeUndefined();
  });

  it('documents the body of every POST, PUT and PATCH, required unless the operation takes nothing', async () => {
    const document = await fetchDocument();
    const writes = Object.values(document.paths).flatMap((methods) =>
      Object.entries(methods).filter(([method]) => ['post', 'put', 'patch'].includes(method)).map(([, operation]) => operation),
    );
    expect(writes.length).toBeGreaterThan(50);
    for (const operation of writes) {
      const content = operation.requestBody?.content ?? {};
      const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema;
      expect(schema, operation.operationId).toBeDefined();
      const takesNothing = schema!.type === 'object' && Object.keys(schema!.properties ?? {}).length === 0;
      expect(operation.requestBody!.required, operation.operationId).toBe(!takesNothing);
    }
    const scenes = document.paths['/api/v1/performances/standing_book_config']!.put!.requestBody!;
    expect(scenes.content['application/json']!.schema.type).toBe('array');
    const ipImport = document.paths['/api/v1/intellectual_properties/import']!.post!.requestBody!;
    expect(ipImport.content['application/json']!.schema.anyOf).toHaveLength(2);
    const upload = document.paths['/api/v1/files']!.post!.requestBody!;
    expect(upload.content['multipart/form-data']!.schema.required).toEqual(['file']);
  });
});
