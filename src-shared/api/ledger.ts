import { z } from 'zod';
import { idSchema } from '../domain/contract';
import {
  caseTypeNodeSchema,
  filterOptionSchema,
  ledgerFieldSchema,
  ledgerRowSchema,
  ledgerSearchSchema,
  sceneCreateSchema,
  sceneListSaveSchema,
  sceneSchema,
  transferSchema,
} from '../domain/ledger';
import { apiPrefix, endpoint, none, trimmed, type Endpoint } from './endpoint';
import { pageSchema } from './envelope';

// The ledger's calls (spec 7, "Ledger"). The title list and the batch transfer have no path in
// the spec: theirs are defined here (docs/api/ledger.md).

const optionsQuery = z.object({ q: trimmed(100).optional() }).strict();

export const ledgerEndpoints = {
  ledgerScenes: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/standing_book_config`, auth: true, query: none, body: none,
    response: z.array(sceneSchema),
  }),
  ledgerSceneCreate: endpoint({
    method: 'POST', path: `${apiPrefix}/performances/standing_book_config`, auth: true, query: none, body: sceneCreateSchema,
    response: sceneSchema,
  }),
  ledgerScenesSave: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/standing_book_config`, auth: true, query: none, body: sceneListSaveSchema,
    response: z.array(sceneSchema),
  }),
  /** Defined here: the fields a scene may show, the scene's titles first and marked. */
  ledgerTitles: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/standing_book_config/titles`, auth: true, body: none,
    query: z.object({ configId: idSchema.optional(), performanceId: idSchema.optional() }).strict(),
    response: z.object({ fields: z.array(ledgerFieldSchema.extend({ isTitle: z.boolean(), isFilter: z.boolean() })) }),
  }),
  ledgerSearch: endpoint({
    method: 'POST', path: `${apiPrefix}/performances/search`, auth: true, query: none, body: ledgerSearchSchema,
    response: pageSchema(ledgerRowSchema),
  }),
  /** Defined here: the batch transfer of the responsible person. */
  contractTransfer: endpoint({
    method: 'POST', path: `${apiPrefix}/contracts/transfer`, auth: true, query: none, body: transferSchema,
    response: z.object({ message: z.string(), count: z.number().int().nonnegative() }),
  }),
  contractArchived: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/archived`, auth: true, query: none, body: none,
    response: z.object({ count: z.number().int().nonnegative() }),
  }),
  caseTypeTree: endpoint({
    method: 'GET', path: `${apiPrefix}/case_type/list/by_user`, auth: true, query: none, body: none,
    response: z.array(caseTypeNodeSchema),
  }),
  workflowFilterOptions: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/workflow_filter_options`, auth: true, query: optionsQuery, body: none,
    response: z.array(filterOptionSchema),
  }),
  templateFilterOptions: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/template_filter_options`, auth: true, query: optionsQuery, body: none,
    response: z.array(filterOptionSchema),
  }),
} as const satisfies Record<string, Endpoint>;
