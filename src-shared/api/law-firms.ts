import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { apiPrefix, endpoint, none, trimmed, type Endpoint } from './endpoint';
import { idListParam } from './query';

// Law firms and lawyers for the agent field (spec 7, "Form support"; spec 3, "Agent value").

export const lawFirmSchema = z.object({ id: idSchema, name: z.string() });
export const lawyerSchema = z.object({ id: idSchema, name: z.string(), lawFirmID: idSchema });

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
} as const satisfies Record<string, Endpoint>;
