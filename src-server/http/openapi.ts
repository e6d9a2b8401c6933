import { z } from 'zod';
import { envelopeSchema, errorEnvelopeSchema } from '../../src-shared/api/envelope';
import { apiPrefix, endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { idParams, none, type Endpoint } from '../../src-shared/api/endpoint';
import { fileUploadPath, uploadedFileSchema, uploadQuerySchema } from '../../src-shared/api/files';

// The OpenAPI 3.1 document of the contract server, generated from the same zod schemas that
// validate the requests, so it cannot drift from what the server accepts.

export const openApiPath = `${apiPrefix}/openapi.json`;

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Schemas with transforms or coercions have no exact JSON form: describe what is accepted.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  return rest;
}

/** Query and path parameters: one entry per property of the (object) schema. */
function parameters(schema: z.ZodType, location: 'query' | 'path'): JsonSchema[] {
  const described = jsonSchema(schema, 'input');
  const properties = (described.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((described.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

const errorResponse = {
  description: 'An error envelope: code, the message (the spec text where it has one), data null, issues naming fields.',
  content: { 'application/json': { schema: jsonSchema(errorEnvelopeSchema, 'output') } },
};

/**
 * The body of a write, whatever its schema's shape (an object, an array, a union). A POST or PUT
 * that takes nothing documents an optional empty object, which is what it accepts; GET and a
 * DELETE that takes nothing have no body.
 */
function requestBody(endpoint: Endpoint): JsonSchema | undefined {
  const takesNothing = endpoint.body === none;
  if (endpoint.method === 'GET' || (takesNothing && endpoint.method === 'DELETE')) return undefined;
  return { required: !takesNothing, content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } } };
}

function operation(name: EndpointName, endpoint: Endpoint): JsonSchema {
  const body = requestBody(endpoint);
  return {
    operationId: name,
    ...(endpoint.auth ? { security: [{ bearer: [] }] } : { security: [] }),
    parameters: [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query')],
    ...(body ? { requestBody: body } : {}),
    responses: {
      200: { description: 'Success', content: { 'application/json': { schema: jsonSchema(envelopeSchema(endpoint.response), 'output') } } },
      default: errorResponse,
    },
  };
}

/** Fastify's `/a/:id` becomes OpenAPI's `/a/{id}`. */
function openApiPathOf(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The raw file routes outside the endpoint map (src-server/files/routes.ts): multipart in, bytes out. */
function fileOperations(): Record<string, Record<string, JsonSchema>> {
  const security = [{ bearer: [] }];
  return {
    [fileUploadPath]: {
      post: {
        operationId: 'fileUpload',
        security,
        parameters: parameters(uploadQuerySchema, 'query'),
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: ['file'] },
            },
          },
        },
        responses: {
          200: { description: 'The stored file', content: { 'application/json': { schema: jsonSchema(envelopeSchema(uploadedFileSchema), 'output') } } },
          default: errorResponse,
        },
      },
    },
    [`${fileUploadPath}/{id}`]: {
      get: {
        operationId: 'fileDownload',
        security,
        parameters: parameters(idParams, 'path'),
        responses: {
          200: { description: 'The file, with its type and name', content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
          default: errorResponse,
        },
      },
    },
  };
}

export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = fileOperations();
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    const endpoint: Endpoint = endpoints[name];
    const path = openApiPathOf(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(name, endpoint) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Contract server', version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
