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
import { apiPrefix, endpoint, idParams, none, trimmed, type Endpoint } from './endpoint';
import { pageSchema } from './envelope';

// The ledger's calls (spec 7, "Ledger"). The title list and the batch transfer have no path in
// the spec: theirs are defined here (docs/api/ledger.md).

const optionsQuery = z.object({ q: trimmed(100).optional() }).strict();

const caseTypeName = z.string({ error: 'please enter the name' }).trim().min(1, 'please enter the name').max(200);
const caseTypeState = z.union([z.literal(1), z.literal(2)], { error: 'state must be 1 (enabled) or 2 (disabled)' });

/** A new case type: its name, its parent (none at the top of the tree) and its state (spec 3: 2 is disabled). */
export const caseTypeCreateSchema = z
  .object({ name: caseTypeName, parentId: z.string().uuid('the parent case type is unknown').nullable().default(null), state: caseTypeState.default(1) })
  .strict();
/** A case type's name and state; it keeps its place in the tree. */
export const caseTypeUpdateSchema = z.object({ name: caseTypeName, state: caseTypeState }).strict();
/** One case type as written: the tree's node without its children and templates. */
export const caseTypeSchema = z.object({ id: idSchema, parentId: idSchema.nullable(), name: z.string(), state: z.number().int() });

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
  /** Defined here: a case type added at the top of the tree or under a node (spec 3, "Case type node"). */
  caseTypeCreate: endpoint({ method: 'POST', path: `${apiPrefix}/case_type`, auth: true, query: none, body: caseTypeCreateSchema, response: caseTypeSchema }),
  /** Defined here: a case type renamed, disabled (state 2) or enabled again; its place in the tree stays. */
  caseTypeUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/case_type/:id`, auth: true, params: idParams, query: none, body: caseTypeUpdateSchema, response: caseTypeSchema,
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
