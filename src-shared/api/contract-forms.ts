import { z } from 'zod';
import { idSchema } from '../domain/contract';
import {
  alterationChangeSchema,
  clauseSchema,
  contractDetailSchema,
  fieldConfigSchema,
  formValuesSchema,
  templateDetailSchema,
} from '../domain/contract-forms';
import { contractStatusSchema } from '../domain/contract';
import { templateDocumentRefSchema } from '../contract-document/schema';
import { approvalCommentMax } from '../rules/contract-status';
import { apiPrefix, endpoint, idParams, none, pageNum, trimmed, type Endpoint } from './endpoint';
import { pageSchema } from './envelope';

// Contracts and templates through the generic form (spec 3, 4, 5), their approval and
// alteration, and the form-support calls of spec 7. Paths the spec does not name are defined
// here in its style (docs/api/contract-forms.md). Writes accept Idempotency-Key and If-Match.

const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });
const idName = z.object({ id: z.string(), name: z.string() });

/** Contract names drop \ / : * ? " < > | and ： ？ on the server as in the form (spec 5). */
const contractNumberSchema = z.string().trim().min(1, 'please enter the number').max(100);

export const createContractSchema = z
  .object({
    /** Client-generated (UUIDv7) so an offline draft keeps its id; the server makes one otherwise. */
    id: z.string().uuid().optional(),
    name: z.string().max(200),
    /** Left out (or null) to have it allocated from the numbering rules. */
    contractNumber: contractNumberSchema.nullable().optional(),
    contractTypeId: idSchema.nullable().optional(),
    templateId: idSchema.nullable().optional(),
    formValues: formValuesSchema.default({}),
  })
  .strict();

export const updateContractSchema = z
  .object({
    name: z.string().max(200),
    /** Left out keeps the number; an auto-generated one changes only for number editors. */
    contractNumber: contractNumberSchema.optional(),
    contractTypeId: idSchema.nullable().optional(),
    formValues: formValuesSchema,
  })
  .strict();

export const approvalBodySchema = z.object({ comment: trimmed(approvalCommentMax).optional() }).strict();

export const archiveBodySchema = z.object({ fileId: idSchema, fileName: trimmed(255).optional() }).strict();

export const alterationBodySchema = z
  .object({
    /** Only the changed values, keyed by field id; each field must allow alteration (alterEditStatus 2). */
    formValues: formValuesSchema.refine((values) => Object.keys(values).length > 0, 'change at least one value'),
    reason: z.string().trim().min(1, 'please enter the reason').max(2000),
  })
  .strict();

/** An alteration of an approved contract (spec 4): who, when, why, and each changed value before and after. */
export const alterationSchema = z.object({
  id: idSchema,
  contractId: idSchema,
  userId: idSchema,
  /** Who altered it, as the history shows them. */
  userName: z.string(),
  reason: z.string(),
  changes: z.array(alterationChangeSchema),
  createTime: z.string(),
});

const templateBody = {
  name: z.string().trim().min(1, 'please enter the template name').max(200),
  contractTypeId: idSchema.nullable().optional(),
  fields: z.array(fieldConfigSchema).max(300),
  clauses: z.array(clauseSchema).max(100).default([]),
  /** The uploaded Word document (a file of purpose 'template'); null drops it, left out keeps it. */
  document: templateDocumentRefSchema.nullable().optional(),
};

export const createTemplateSchema = z
  .object({ id: z.string().uuid().optional(), templateNumber: contractNumberSchema.nullable().optional(), ...templateBody })
  .strict();
export const updateTemplateSchema = z.object({ templateNumber: contractNumberSchema.optional(), ...templateBody }).strict();

export const templateSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  templateNumber: z.string().nullable(),
  contractTypeId: idSchema.nullable(),
  status: contractStatusSchema,
  /** The author (null once their account is gone): with administrators, the only one who may change or delete it. */
  createdBy: idSchema.nullable(),
  updateTime: z.string(),
  version: z.number().int(),
});

const deletedSchema = z.object({ id: idSchema, deleted: z.literal(true) });

/** Contract and template approval steps (spec 4): submit 1|3→2, approve 2→4, reject 2→3. */
function approvalEndpoints<R extends z.ZodType>(base: string, response: R) {
  const step = (action: string) =>
    endpoint({ method: 'POST', path: `${base}/:id/${action}`, auth: true, params: idParams, query: none, body: approvalBodySchema, response });
  return { submit: step('submit'), approve: step('approve'), reject: step('reject') };
}

const contractSteps = approvalEndpoints(`${apiPrefix}/contracts`, contractDetailSchema);
const templateSteps = approvalEndpoints(`${apiPrefix}/templates`, templateDetailSchema);

export const contractFormsEndpoints = {
  createContract: endpoint({ method: 'POST', path: `${apiPrefix}/contracts`, auth: true, query: none, body: createContractSchema, response: contractDetailSchema }),
  contractDetail: endpoint({ method: 'GET', path: `${apiPrefix}/contracts/:id`, auth: true, params: idParams, query: none, body: none, response: contractDetailSchema }),
  updateContract: endpoint({ method: 'PUT', path: `${apiPrefix}/contracts/:id`, auth: true, params: idParams, query: none, body: updateContractSchema, response: contractDetailSchema }),
  deleteContract: endpoint({ method: 'DELETE', path: `${apiPrefix}/contracts/:id`, auth: true, params: idParams, query: none, body: none, response: deletedSchema }),
  submitContract: contractSteps.submit,
  approveContract: contractSteps.approve,
  rejectContract: contractSteps.reject,
  archiveContract: endpoint({
    method: 'POST', path: `${apiPrefix}/contracts/:id/archive`, auth: true, params: idParams, query: none, body: archiveBodySchema, response: contractDetailSchema,
  }),
  alterContract: endpoint({
    method: 'POST', path: `${apiPrefix}/contracts/:id/alterations`, auth: true, params: idParams, query: none, body: alterationBodySchema,
    response: z.object({ alteration: alterationSchema, contract: contractDetailSchema }),
  }),
  contractAlterations: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/:id/alterations`, auth: true, params: idParams, query: none, body: none, response: listOf(alterationSchema),
  }),
  templateList: endpoint({
    method: 'GET', path: `${apiPrefix}/templates`, auth: true,
    query: z
      .object({
        pageNum,
        pageSize: z.coerce.number().int().min(1).max(100).default(20),
        q: trimmed(100).optional(),
        /** Only templates of this status (e.g. 2: those awaiting approval). */
        status: z.coerce.number().pipe(contractStatusSchema).optional(),
      })
      .strict(),
    body: none, response: pageSchema(templateSummarySchema),
  }),
  /**
   * What the drafting catalogue holds changes exactly when this does (the approved templates): a
   * drafter's core asks after each sync round and fetches the catalogue again when it moved.
   */
  templateCatalogueVersion: endpoint({
    method: 'GET', path: `${apiPrefix}/templates/catalogue_version`, auth: true, query: none, body: none, response: z.object({ version: z.string() }),
  }),
  createTemplate: endpoint({ method: 'POST', path: `${apiPrefix}/templates`, auth: true, query: none, body: createTemplateSchema, response: templateDetailSchema }),
  templateDetail: endpoint({ method: 'GET', path: `${apiPrefix}/templates/:id`, auth: true, params: idParams, query: none, body: none, response: templateDetailSchema }),
  updateTemplate: endpoint({ method: 'PUT', path: `${apiPrefix}/templates/:id`, auth: true, params: idParams, query: none, body: updateTemplateSchema, response: templateDetailSchema }),
  deleteTemplate: endpoint({ method: 'DELETE', path: `${apiPrefix}/templates/:id`, auth: true, params: idParams, query: none, body: none, response: deletedSchema }),
  submitTemplate: templateSteps.submit,
  approveTemplate: templateSteps.approve,
  rejectTemplate: templateSteps.reject,
  fieldList: endpoint({
    method: 'GET', path: `${apiPrefix}/fields`, auth: true, query: z.object({ q: trimmed(100).optional() }).strict(), body: none,
    response: listOf(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  }),
  dynamicSelect: endpoint({
    method: 'GET', path: `${apiPrefix}/fields/:fieldId/dynamic_select`, auth: true,
    params: z.object({ fieldId: z.string().min(1).max(64) }).strict(),
    query: z.object({ pageNum, pageSize: z.coerce.number().int().min(1).max(100).default(20), q: trimmed(100).optional() }).strict(),
    body: none, response: pageSchema(idName),
  }),
  offlineArchiveSettings: endpoint({
    method: 'GET', path: `${apiPrefix}/archive/offline_settings`, auth: true, query: none, body: none, response: listOf(idName),
  }),
  contractsForRelated: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/list_for_related`, auth: true,
    query: z
      .object({
        relationType: z.coerce.number().int().min(1).max(9).default(3),
        type: z.coerce.number().int().min(1).max(9).default(1),
        q: trimmed(100).optional(),
      })
      .strict(),
    body: none, response: listOf(idName.extend({ contractNumber: z.string().nullable() })),
  }),
} as const satisfies Record<string, Endpoint>;
