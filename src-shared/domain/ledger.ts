import { z } from 'zod';
import { contractStatusSchema, idSchema } from './contract';
import { ledgerPageSizes, TransferHandleMethod } from './enums';

// The ledger (spec 3 "Ledger", 5 "Dashboard and ledger", 9): scenes, field definitions, filter
// conditions, the search request and its rows, and the transfer payload.

export const ledgerFieldCategories = ['system', 'contract'] as const;
export type LedgerFieldCategory = (typeof ledgerFieldCategories)[number];

/** Ledger column types (spec 3), plus number, which filters like money. */
export const ledgerFieldTypes = ['people', 'money', 'number', 'select', 'multiselect', 'date', 'upload', 'input-select', 'contract editor', 'others'] as const;
export type LedgerFieldType = (typeof ledgerFieldTypes)[number];

/** The performance name column: always shown, cannot be removed (spec 3). */
export const nameFieldId = 'name';

export const sceneNameMax = 50;
export const transferReasonMax = 2000;

export const sceneMessages = {
  nameEmpty: 'scene name cannot be empty',
  nameDuplicated: 'filter scene name duplicated',
  systemUndeletable: 'system scenes cannot be deleted',
  oneDefault: 'exactly one scene must be the default',
  sortNotShown: 'a scene is sorted by one of its columns',
} as const;

export const transferMessages = {
  personRequired: 'please enter the responsible person',
  contractsRequired: 'please select the ledger list to transfer',
  succeeded: 'transfer succeeded',
} as const;

export const ledgerFieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(ledgerFieldCategories),
  type: z.enum(ledgerFieldTypes),
  config: z.record(z.string(), z.unknown()),
  isDefaultFilter: z.boolean(),
  isDefaultTitle: z.boolean(),
});
export type LedgerField = z.infer<typeof ledgerFieldSchema>;

const fieldId = z.string().trim().min(1).max(64);
const fieldIds = z.array(fieldId).max(100);

/**
 * A filter condition (spec 3): the field's id and type and one of: a range (gte/lte: numbers for
 * money in hundredths and number fields, yyyy-MM-dd for dates), a set (in), or a search word.
 * filterName is the label the client shows; the server does not match on it.
 */
export const filterConditionSchema = z
  .object({
    id: fieldId,
    type: z.enum(ledgerFieldTypes).optional(),
    condition: z
      .object({
        gte: z.union([z.number().finite(), z.string().trim().max(32)]).nullable().optional(),
        lte: z.union([z.number().finite(), z.string().trim().max(32)]).nullable().optional(),
        in: z.array(z.union([z.string().max(64), z.number().int()])).max(200).optional(),
        searchWord: z.string().trim().max(200).optional(),
        filterName: z.string().max(200).optional(),
      })
      .strict(),
  })
  .strict();
export type FilterCondition = z.infer<typeof filterConditionSchema>;

/** A sort by one column: key 1 ascending, -1 descending (a scene keeps one, a search may ask one). */
export const sortFieldSchema = z
  .object({ id: fieldId, key: z.union([z.literal(1), z.literal(-1)]), type: z.enum(ledgerFieldTypes).optional() })
  .strict();
export type SortField = z.infer<typeof sortFieldSchema>;

const sceneName = z
  .string()
  .trim()
  .min(1, sceneMessages.nameEmpty)
  .max(sceneNameMax, `scene name must be at most ${sceneNameMax} characters`);

export const sceneSchema = z.object({
  id: idSchema,
  name: z.string(),
  isDefault: z.boolean(),
  isSystem: z.boolean(),
  performanceId: idSchema.nullable(),
  filterIDs: z.array(z.string()),
  titleIDs: z.array(z.string()),
  filter: z.array(filterConditionSchema),
  /** The kept sort, one of the scene's columns; null: newest update first. */
  sortField: sortFieldSchema.nullable(),
  titles: z.array(ledgerFieldSchema),
  version: z.number().int(),
});
export type Scene = z.infer<typeof sceneSchema>;

export const sceneCreateSchema = z
  .object({
    name: sceneName,
    titleIDs: fieldIds.default([]),
    filterIDs: fieldIds.default([]),
    filter: z.array(filterConditionSchema).max(50).default([]),
    sortField: sortFieldSchema.nullable().default(null),
    performanceId: idSchema.nullable().default(null),
  })
  .strict();
export type SceneCreate = z.infer<typeof sceneCreateSchema>;

export const sceneListItemSchema = sceneCreateSchema.extend({
  id: idSchema,
  isDefault: z.boolean(),
  isSystem: z.boolean(),
  /** When given, the save is refused with 409 if the scene changed since. */
  version: z.number().int().nonnegative().optional(),
});
export const sceneListSaveSchema = z.array(sceneListItemSchema).min(1).max(100);
export type SceneListItem = z.infer<typeof sceneListItemSchema>;

export const ledgerSearchSchema = z
  .object({
    filterList: z.array(filterConditionSchema).max(50).default([]),
    pageNum: z.number().int().min(1).max(100_000).default(1),
    pageSize: z
      .number()
      .int()
      .refine((n) => (ledgerPageSizes as readonly number[]).includes(n), `pageSize must be one of ${ledgerPageSizes.join(', ')}`)
      .default(20),
    q: z.string().trim().max(200).optional(),
    titleIDs: fieldIds.optional(),
    standingBookID: idSchema.optional(),
    /** Omitted: the scene's kept sort; null: none (newest update first). */
    sortField: sortFieldSchema.nullable().optional(),
    performanceId: idSchema.nullable().optional(),
  })
  .strict();
export type LedgerSearch = z.infer<typeof ledgerSearchSchema>;

export const ledgerRowSchema = z.object({
  /** The performance task's id. */
  id: z.string(),
  data: z.record(z.string(), z.unknown()),
  fieldSnapShot: z.record(z.string(), ledgerFieldSchema),
  contractID: z.string(),
  contractName: z.string(),
  performanceId: z.string().nullable(),
  templateName: z.string().nullable(),
  contractTypeName: z.string().nullable(),
  status: contractStatusSchema.nullable(),
  type: z.string(),
  taskState: z.number().int(),
  receivableTime: z.string().nullable(),
  payableTime: z.string().nullable(),
  invoiceTime: z.string().nullable(),
  expirationTime: z.string().nullable(),
  recallTime: z.string().nullable(),
  performanceTime: z.string().nullable(),
  updateTime: z.string(),
  createTime: z.string(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

export const transferSchema = z
  .object({
    contractIDList: z.array(idSchema).max(1000).min(1, transferMessages.contractsRequired),
    userID: z.string({ error: transferMessages.personRequired }).trim().min(1, transferMessages.personRequired).max(64),
    handleMethod: z.union([z.literal(TransferHandleMethod.AsBusinessHandler), z.literal(TransferHandleMethod.KeepAgentIdentity)]),
    reason: z.string().max(transferReasonMax, `reason must be at most ${transferReasonMax} characters`).default(''),
  })
  .strict();
export type Transfer = z.infer<typeof transferSchema>;

export const caseTypeNodeSchema: z.ZodType<CaseTypeNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    /** 2 means disabled (spec 3). */
    state: z.number().int(),
    children: z.array(caseTypeNodeSchema),
    templateList: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
);
export interface CaseTypeNode {
  id: string;
  name: string;
  state: number;
  children: CaseTypeNode[];
  templateList: { id: string; name: string }[];
}

export const filterOptionSchema = z.object({ id: z.string(), name: z.string() });
