import { z } from 'zod';

// The building blocks of the REST contract. Each feature declares its endpoints in its own file
// under src-shared/api and `endpoints.ts` joins them into the one map the server serves and the
// main core calls.

export const apiPrefix = '/api/v1';

/**
 * The deepest nesting of arrays and objects a JSON body may have: the server refuses deeper
 * bodies with 400 before reading them, since walking them would exhaust its stack.
 */
export const maxJsonDepth = 64;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Endpoint<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends boolean = boolean,
  P extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Fastify syntax: `/performances/task/:id`; the spec's `{id}`. */
  path: string;
  /** Whether a bearer token is required (kept literal, so handlers know whether a user is present). */
  auth: A;
  /** Path parameters (`:id`), validated like the query. */
  params: P;
  query: Q;
  body: B;
  /** The `data` of the success envelope. */
  response: R;
}

export const none = z.object({}).strict();

export const trimmed = (max: number) => z.string().trim().max(max);

/** Query strings arrive as text: coerce numbers. */
export const pageNum = z.coerce.number().int().min(1).max(1_000_000).default(1);

/** An `:id` path parameter: ids are UUIDs (v7) so clients can make them offline. */
export const idParams = z.object({ id: z.string().uuid() }).strict();

/** Declares an endpoint; `params` defaults to none. */
export function endpoint<
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
  const A extends boolean,
  P extends z.ZodType = typeof none,
>(e: Omit<Endpoint<Q, B, R, A, P>, 'params'> & { params?: P }): Endpoint<Q, B, R, A, P> {
  return { ...e, params: (e.params ?? none) as P };
}
