import type { z } from 'zod';
import { endpoints, type EndpointName } from '../../../src-shared/api/endpoints';
import { AppFailure, validationFailure } from '../../../src-shared/errors';
import type { ContractServerRequest } from './client';

/** A call by endpoint name as the renderer sends it: path parameters, query values and a body. */
export interface NamedCall {
  endpoint: EndpointName;
  params: Record<string, string>;
  query: Record<string, string | number | boolean>;
  body?: unknown;
}

/**
 * The call checked against its endpoint's schemas before anything is sent, so bad input is
 * refused at once with the server's own messages (paths prefixed with the part they are in).
 */
export function checkedRequest(call: NamedCall): ContractServerRequest<EndpointName> {
  const endpoint = endpoints[call.endpoint];
  // The query travels as text (refresh=true), and the endpoint's schema reads it as text: check what the server will get.
  const queryText = Object.fromEntries(Object.entries(call.query).map(([key, value]) => [key, String(value)]));
  for (const [part, schema, value] of [
    ['params', endpoint.params, call.params],
    ['query', endpoint.query, queryText],
    ['body', endpoint.body, call.body ?? {}],
  ] as const) {
    const parsed = (schema as z.ZodType).safeParse(value);
    if (!parsed.success) {
      const failure = validationFailure(parsed.error);
      throw new AppFailure('validation_failed', failure.message, failure.error.issues?.map((issue) => ({ ...issue, path: `${part}.${issue.path}` })));
    }
  }
  return { params: call.params, query: call.query, body: call.body } as ContractServerRequest<EndpointName>;
}
