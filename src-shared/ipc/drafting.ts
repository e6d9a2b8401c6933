import { z } from 'zod';
import { contractIdSchema, contractSchema, contractStatusSchema, idSchema } from '../domain/contract';
import { moneySchema } from '../domain/money';
import { approvalTrailSchema } from '../domain/approval-trail';
import { contractDetailSchema, formValuesSchema, templateDetailSchema } from '../domain/contract-forms';
import { approvalCommentMax, approvalSteps } from '../rules/contract-status';
import { previewRuleSchema } from '../domain/numbering';
import { alterationSchema } from '../api/contract-forms';
import { endpoints, type EndpointName } from '../api/endpoints';
import { appErrorSchema } from '../errors';
import { mutations } from '../sync/mutations';
import { checkDuplicateQuerySchema } from '../api/numbering';
import { duplicateResultSchema } from '../form/field-config';
import { cachedAnswerSchema } from './cached-reads';

// What the renderer's contract screens (issue 6) ask the core. Drafting works offline: the core
// keeps a catalogue (templates with their field configs and clauses, contract types, the
// numbering preview, counterparties) refreshed whenever the server answers, and contracts are
// saved into the replica and the outbox. The reads a drafter meets answer offline from what this
// device keeps, with the time they are "as of" (issue 30); the rest (calls only the server can
// answer) go through `online.call`, which answers OFFLINE while the server cannot be reached.

export const catalogueTemplateSchema = z.object({
  id: idSchema,
  name: z.string(),
  templateNumber: z.string().nullable(),
  contractTypeId: idSchema.nullable(),
});
export type CatalogueTemplate = z.infer<typeof catalogueTemplateSchema>;

export const catalogueContractTypeSchema = z.object({
  id: idSchema,
  name: z.string(),
  parentId: idSchema.nullable(),
  /** A node that only groups others cannot be chosen (spec: case type cascader). */
  disabled: z.boolean(),
});
export type CatalogueContractType = z.infer<typeof catalogueContractTypeSchema>;

export const catalogueCounterpartySchema = z.object({
  id: idSchema,
  name: z.string(),
  /** 1 inner, 2 outer (spec 3, party types). */
  partyType: z.union([z.literal(1), z.literal(2)]),
  creditCode: z.string().nullable(),
});
export type CatalogueCounterparty = z.infer<typeof catalogueCounterpartySchema>;

/**
 * A party picker's search result: a kept counterparty with what counterpart/list said of it (its
 * details, banks and contacts: spec 3, "Counterpart search result"), as last fetched; without
 * them when it was never searched while online.
 */
export const partySearchResultSchema = catalogueCounterpartySchema.extend({
  fieldDetailMap: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  bankItemList: z.array(z.object({ name: z.string(), account: z.string(), accountName: z.string() })).optional(),
  contactItemList: z.array(z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable(), title: z.string().nullable() })).optional(),
});
export type PartySearchResult = z.infer<typeof partySearchResultSchema>;

/** A related-contracts field's candidate search (spec 7, contracts/list_for_related): by name or number. */
export const relatedCandidatesRequestSchema = z.object({ q: z.string().trim().max(100).default('') }).strict();

export const relatedCandidatesSchema = z.object({
  list: z.array(z.object({ id: idSchema, name: z.string(), contractNumber: z.string().nullable() })),
  /** The server was away: the candidates are this device's contracts. */
  offline: z.boolean(),
  /** Offline, the time of this device's last sync (null when it never synced): its contracts are as of then. */
  asOf: z.string().nullable(),
});
export type RelatedCandidates = z.infer<typeof relatedCandidatesSchema>;

/**
 * The contract-number duplicate check (spec 5, 7): the server's answer while it can be reached,
 * else the numbers of the contracts this device holds "as of" its last sync. The query is the
 * endpoint's (`checkDuplicateQuerySchema`): one number, or every number carried more than once.
 */
export const duplicateCheckRequestSchema = checkDuplicateQuerySchema;
export const duplicateCheckAnswerSchema = cachedAnswerSchema(z.object({ list: z.array(duplicateResultSchema) }));
export type DuplicateCheckAnswer = z.infer<typeof duplicateCheckAnswerSchema>;

export const draftingCatalogueSchema = z.object({
  /** When the catalogue was last fetched from the server; null when never (drafting waits for it). */
  refreshedAt: z.string().nullable(),
  templates: z.array(catalogueTemplateSchema),
  contractTypes: z.array(catalogueContractTypeSchema),
  /**
   * The auto-numbering preview rules that may number this user's contracts (spec 3, preview rule):
   * every contract type's rule, and the initiator's department rule or the default rule as the
   * server's auto_preview answers for this user (src-shared/rules/numbering-scope.ts chooses).
   */
  numberingPreview: z.array(previewRuleSchema),
  /** Whether the signed-in user may change an automatic contract number. */
  isNumberEditor: z.boolean(),
});
export type DraftingCatalogue = z.infer<typeof draftingCatalogueSchema>;

export const partySearchRequestSchema = z
  .object({
    keyword: z.string().trim().max(100).default(''),
    partyType: z.union([z.literal(1), z.literal(2)]).optional(),
    pageNum: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
  })
  .strict();

/**
 * A contract as its detail screen shows it, from the replica (local edits included), with the key
 * terms its header shows at a glance: the very values of its ledger row.
 */
/**
 * A draft (create) or a form save (update) of a contract the server refused: why, and what the
 * edit gives the contract, so the form reopens with the user's values and the reason on its fields.
 */
export const contractRefusalSchema = z.object({
  /** The refused mutation's id, as the sync panel names the problem. */
  id: z.string(),
  kind: z.enum(['create', 'update']),
  error: appErrorSchema.nullable(),
  /** The name the edit gives, when it gives one. */
  name: z.string().optional(),
  /** The number the edit gives, when it gives one. */
  contractNumber: z.string().nullable().optional(),
  /** The form values the edit gives, by field id. */
  formValues: z.record(z.string(), z.unknown()),
});
export type ContractRefusal = z.infer<typeof contractRefusalSchema>;

export const replicaContractDetailSchema = contractDetailSchema.extend({
  ...contractSchema.pick({
    counterpartName: true,
    amount: true,
    signDate: true,
    responsibleUserName: true,
    departmentName: true,
    templateName: true,
  }).shape,
  /** The number was given offline and the server has not confirmed it yet. */
  numberProvisional: z.boolean(),
  /** Local edits of this contract are still waiting to reach the server. */
  pending: z.boolean(),
  /** This device's edit of the contract the server refused, kept for the user to correct and re-send, or discard; null when none. */
  refusal: contractRefusalSchema.nullable(),
  /** Archived on this device and not yet applied by the server (issue 30): 'archive pending'. */
  archivePending: z.boolean(),
});
export type ReplicaContractDetail = z.infer<typeof replicaContractDetailSchema>;

/** The states of this device's queued edits (the outbox): waiting, accepted by the server, refused, stale. */
export const localChangeStates = ['pending', 'applied', 'rejected', 'conflict'] as const;

/** One of this device's edits of a contract, as its history lists it until the server's row replaces it. */
export const localContractChangeSchema = z.object({
  /** The mutation id. */
  id: z.string(),
  /** The mutation name: contract.create, contract.update, contract.alter or contract.approvalStep. */
  name: z.string(),
  state: z.enum(localChangeStates),
  createdAt: z.string(),
  /** An alteration's reason. */
  reason: z.string().nullable(),
  /** An approval step's action and comment. */
  step: z.object({ action: z.enum(approvalSteps), comment: z.string().nullable() }).nullable(),
  /** The values the edit set, keyed by field id (form values) or column (other edits). */
  changes: z.record(z.string(), z.unknown()),
  error: appErrorSchema.nullable(),
});
export type LocalContractChange = z.infer<typeof localContractChangeSchema>;

/**
 * A contract's history: the server's alterations, fetched when online and kept for reading
 * offline "as of" their fetch time, and this device's own edits of the contract not yet settled.
 */
export const contractHistorySchema = z.object({
  alterations: z.array(alterationSchema),
  /** The approval steps the server applied, oldest first, as the replica holds them (offline too). */
  approvalTrail: approvalTrailSchema,
  /** When the alterations were fetched from the server; null when they never were. */
  fetchedAt: z.string().nullable(),
  /** The server could not be reached: the alterations are the kept copy of `fetchedAt`. */
  offline: z.boolean(),
  localChanges: z.array(localContractChangeSchema),
});
export type ContractHistory = z.infer<typeof contractHistorySchema>;

/** A provisional number the server replaced on sync; shown until the user dismisses it. */
export const numberNoticeSchema = z.object({
  contractId: idSchema,
  contractName: z.string(),
  provisional: z.string(),
  /** Null when the server gave none (no numbering rule applied any more). */
  confirmed: z.string().nullable(),
  at: z.string(),
});
export type NumberNotice = z.infer<typeof numberNoticeSchema>;

/** The server calls the form may make through the core while online. */
export const onlineCallNames = [
  'counterpartSearch',
  'counterpartExternalDetail',
  'lawFirmList',
  'lawyersByLawFirms',
  'dynamicSelect',
  'contractsForRelated',
  'contractNumberCheckDuplicate',
  'contractNumberAutoPreview',
  'contractAlterations',
  'projectListAll',
  // Counterparty screens (issue 15): online-only writes.
  'counterpartyCreate',
  'counterpartyUpdate',
  'counterpartMonitoringUrl',
  // Projects, numbering and intellectual property (issue 15): their writes, online only.
  'projectCreate',
  'projectUpdate',
  'projectDelete',
  'projectAddContracts',
  'projectRemoveContracts',
  'saveContractNumberRules',
  'saveContractNumberAbbrSetting',
  'deleteContractNumberAbbrSetting',
  'saveTemplateNumberRules',
  'saveTemplateNumberAbbrSetting',
  'deleteTemplateNumberAbbrSetting',
  'saveContractNumberEditors',
  'designateDepartment',
  'ipOrganizationCreate',
  'ipOrganizationUpdate',
  'ipOrganizationDelete',
  'ipUpdate',
  'ipDelete',
  'ipStatus',
  'ipTransfer',
  'ipRecordCreate',
  'ipRecordUpdate',
  'ipRecordDelete',
  'ipImport',
  'ipCreate',
  // Law firms, lawyers and case types (issue 31): their upkeep, online only.
  'lawFirmCreate',
  'lawFirmUpdate',
  'lawyerCreate',
  'lawyerUpdate',
  'caseTypeCreate',
  'caseTypeUpdate',
  // Performance definitions and the organisation's settings (issue 28): administration writes, online only.
  'performanceCreate',
  'performanceUpdate',
  'performanceDelete',
  'organisationSettingsUpdate',
  'deviceSignOut',
  'deviceRevoke',
  'deviceOfflineLock',
  // Templates (issue 29): written online only; approval steps go through 'template.approvalStep'.
  'createTemplate',
  'updateTemplate',
  'deleteTemplate',
  'templateNumberCheckDuplicate',
  // The audit trail (issue 32): read and checked online only.
  'auditEvents',
  'auditVerify',
  'auditSettings',
  'auditSettingsUpdate',
  'contractAuditEvents',
] as const satisfies readonly EndpointName[];
export type OnlineCallName = (typeof onlineCallNames)[number];

export const onlineCallRequestSchema = z
  .object({
    endpoint: z.enum(onlineCallNames),
    params: z.record(z.string(), z.string()).default({}),
    query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    body: z.unknown().optional(),
  })
  .strict()
  .refine((request) => request.endpoint in endpoints, 'unknown endpoint');

export const createContractRequestSchema = z
  .object({
    name: z.string().max(200),
    templateId: idSchema.nullable(),
    contractTypeId: idSchema.nullable(),
    /** null asks for an automatic number; the core gives a provisional one until sync confirms it. */
    contractNumber: z.string().trim().min(1).max(100).nullable(),
    formValues: formValuesSchema,
  })
  .strict();

export const createContractResponseSchema = z.object({
  id: idSchema,
  mutationId: z.string(),
  contractNumber: z.string().nullable(),
  numberProvisional: z.boolean(),
});

export const saveContractFormRequestSchema = z
  .object({
    id: contractIdSchema,
    name: z.string().max(200),
    contractTypeId: idSchema.nullable(),
    /** Left out keeps the number. */
    contractNumber: z.string().trim().min(1).max(100).optional(),
    formValues: formValuesSchema,
  })
  .strict();

/** An alteration is queued as is: the request is the mutation's args. */
export const alterContractRequestSchema = mutations['contract.alter'].args;

export { templateDetailSchema };

/**
 * An approval step of a template (spec 4; the template approval page). Templates are not
 * replicated, so the step is online only: refused at once with OFFLINE while the server is away.
 */
export const templateApprovalStepRequestSchema = z
  .object({
    id: idSchema,
    action: z.enum(approvalSteps),
    comment: z.string().trim().max(approvalCommentMax).optional(),
  })
  .strict();

/** The templates the template approval page lists (online): a page of them, optionally by name. */
export const templateListRequestSchema = z
  .object({
    pageNum: z.number().int().min(1).max(10_000).default(1),
    q: z.string().trim().max(100).optional(),
  })
  .strict();

/** How many cooperation rows the contract detail shows at most. */
export const cooperationRowLimit = 50;

/**
 * One row of the contract detail's cooperation information (spec 3 "Cooperative info row"): another
 * contract with the same counterparty. The spec leaves the text columns open; these are the
 * contract's name and number. The operators are the contract's responsible person.
 */
export const cooperativeInfoRowSchema = z.object({
  contractID: idSchema,
  updateTime: z.string(),
  state: contractStatusSchema.nullable(),
  amount: moneySchema.nullable(),
  operatorList: z.array(z.string()),
  name: z.string(),
  contractNumber: z.string().nullable(),
});
export type CooperativeInfo = z.infer<typeof cooperativeInfoRowSchema>;
