import { z } from 'zod';
import { contractSchema, idSchema } from '../domain/contract';
import { pageSchema } from './envelope';
import { apiPrefix, endpoint, idParams, none, pageNum, trimmed, type Endpoint } from './endpoint';
import { idListParam, pageSizeParam } from './query';

// Projects group contracts (spec 7, "Projects"). The spec shows only the id; a project here has
// a name (unique in the organisation) and a description. Its contracts are listed, added and
// removed only among the contracts the user may see.

export const projectNameMessage = 'please enter the project name';

export const projectSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string(),
  createdBy: idSchema,
  createdByName: z.string(),
  /** The contracts of the project the viewer may see. */
  contractCount: z.number().int(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});
export type Project = z.infer<typeof projectSchema>;

const projectFields = {
  name: z.string({ error: projectNameMessage }).trim().min(1, projectNameMessage).max(100),
  description: trimmed(2000).default(''),
};

export const projectCreateSchema = z
  .object({ ...projectFields, contractIds: z.array(idSchema).max(500).default([]) })
  .strict();
export const projectUpdateSchema = z.object({ ...projectFields, version: z.number().int().min(1).optional() }).strict();

const pageQuery = { pageNum, pageSize: pageSizeParam(20), q: trimmed(100).optional() };

/** The project's contract list entries; `projectId` shows which project a visible contract is in. */
export const visibleContractSchema = z.object({
  id: idSchema,
  name: z.string(),
  contractNumber: z.string().nullable(),
  projectId: idSchema.nullable(),
});

export const projectsEndpoints = {
  projectList: endpoint({
    method: 'GET', path: `${apiPrefix}/project/list`, auth: true, query: z.object(pageQuery).strict(), body: none,
    response: pageSchema(projectSchema),
  }),
  projectCreate: endpoint({
    method: 'POST', path: `${apiPrefix}/project`, auth: true, query: none, body: projectCreateSchema, response: projectSchema,
  }),
  projectListAll: endpoint({
    method: 'GET', path: `${apiPrefix}/project/list/all`, auth: true, query: none, body: none,
    response: z.object({ list: z.array(z.object({ id: idSchema, name: z.string() })) }),
  }),
  projectGet: endpoint({
    method: 'GET', path: `${apiPrefix}/project/:id`, auth: true, params: idParams, query: none, body: none, response: projectSchema,
  }),
  projectUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/project/:id`, auth: true, params: idParams, query: none, body: projectUpdateSchema,
    response: projectSchema,
  }),
  projectDelete: endpoint({
    method: 'DELETE', path: `${apiPrefix}/project/:id`, auth: true, params: idParams, query: none, body: none,
    response: z.object({ deleted: z.literal(true) }),
  }),
  projectContracts: endpoint({
    method: 'GET', path: `${apiPrefix}/project/:id/contracts`, auth: true, params: idParams, query: z.object(pageQuery).strict(), body: none,
    response: pageSchema(contractSchema),
  }),
  projectAddContracts: endpoint({
    method: 'PUT', path: `${apiPrefix}/project/:id/contracts`, auth: true, params: idParams, query: none,
    body: z.object({ contractIds: z.array(idSchema).min(1, 'select at least one contract').max(500) }).strict(),
    response: z.object({ count: z.number().int() }),
  }),
  projectRemoveContracts: endpoint({
    method: 'DELETE', path: `${apiPrefix}/project/:id/contracts`, auth: true, params: idParams,
    query: z.object({ contractIds: idListParam(500, idSchema).refine((ids) => ids.length > 0, 'select at least one contract') }).strict(),
    body: none,
    response: z.object({ count: z.number().int() }),
  }),
  /** The contracts the user may see, to pick from when adding to a project. */
  contractListVisible: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/list/visible`, auth: true,
    query: z.object({ ...pageQuery, projectId: z.string().uuid().optional(), withoutProject: z.enum(['true', 'false']).optional() }).strict(),
    body: none,
    response: pageSchema(visibleContractSchema),
  }),
} as const satisfies Record<string, Endpoint>;
