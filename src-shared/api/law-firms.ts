import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { apiPrefix, endpoint, idParams, none, trimmed, type Endpoint } from './endpoint';
import { idListParam } from './query';

// Law firms and lawyers for the agent field (spec 7, "Form support"; spec 3, "Agent value"), and
// their upkeep on the law firms screen. The spec gives the reads; the writes are designed here.

/** As for case types (spec 3): 1 enabled, 2 disabled (kept for the contracts naming it, not offered anew). */
export const referenceStates = [1, 2] as const;
export const disabledState = 2;
const stateSchema = z.union([z.literal(1), z.literal(2)], { error: 'state must be 1 (enabled) or 2 (disabled)' });

export const lawFirmSchema = z.object({ id: idSchema, name: z.string(), state: z.number().int() });
export const lawyerSchema = z.object({ id: idSchema, name: z.string(), lawFirmID: idSchema, state: z.number().int() });

const nameSchema = z.string({ error: 'please enter the name' }).trim().min(1, 'please enter the name').max(200);

/** A law firm as entered: its name, and whether it is offered (a PUT replaces both). */
export const lawFirmInputSchema = z.object({ name: nameSchema, state: stateSchema.default(1) }).strict();
/** A lawyer as entered: name, firm and state. */
export const lawyerInputSchema = z
  .object({ name: nameSchema, lawFirmID: z.string({ error: 'please choose the law firm' }).uuid('please choose the law firm'), state: stateSchema.default(1) })
  .strict();

/**
 * Without paging parameters the whole list comes back (the form's second call); with either, a
 * page of pageSize (default 100) from pageNum (default 1), as the agent picker asks.
 */
export const lawFirmListQuerySchema = z
  .object({
    pageSize: z.coerce.number().int().min(1).max(1000).optional(),
    pageNum: z.coerce.number().int().min(1).max(1_000_000).optional(),
    q: trimmed(100).optional(),
  })
  .strict();

export const lawFirmsEndpoints = {
  lawFirmList: endpoint({
    method: 'GET', path: `${apiPrefix}/law_firms`, auth: true, query: lawFirmListQuerySchema, body: none,
    response: z.object({ list: z.array(lawFirmSchema), count: z.number().int() }),
  }),
  lawyersByLawFirms: endpoint({
    method: 'GET', path: `${apiPrefix}/lawyers/by_law_firms`, auth: true,
    query: z.object({ lawFirmIDs: idListParam(), q: trimmed(100).optional() }).strict(),
    body: none,
    response: z.object({ list: z.array(lawyerSchema) }),
  }),
  lawyerList: endpoint({
    method: 'GET', path: `${apiPrefix}/lawyers`, auth: true, query: none, body: none,
    response: z.object({ list: z.array(lawyerSchema) }),
  }),
  /** Defined here: a new law firm. */
  lawFirmCreate: endpoint({ method: 'POST', path: `${apiPrefix}/law_firms`, auth: true, query: none, body: lawFirmInputSchema, response: lawFirmSchema }),
  /** Defined here: a law firm renamed, disabled or enabled again. */
  lawFirmUpdate: endpoint({ method: 'PUT', path: `${apiPrefix}/law_firms/:id`, auth: true, params: idParams, query: none, body: lawFirmInputSchema, response: lawFirmSchema }),
  /** Defined here: a new lawyer of a law firm. */
  lawyerCreate: endpoint({ method: 'POST', path: `${apiPrefix}/lawyers`, auth: true, query: none, body: lawyerInputSchema, response: lawyerSchema }),
  /** Defined here: a lawyer renamed, moved to another firm, disabled or enabled again. */
  lawyerUpdate: endpoint({ method: 'PUT', path: `${apiPrefix}/lawyers/:id`, auth: true, params: idParams, query: none, body: lawyerInputSchema, response: lawyerSchema }),
} as const satisfies Record<string, Endpoint>;
