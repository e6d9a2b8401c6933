import { z } from 'zod';
import { CalculationOperator, fieldTypes, PartySubtype, PartyType, type FieldType } from '../domain/enums';
import { moneySchema, type Money } from '../domain/money';
import { formMessage } from './messages';

// The field config the server sends for each field of the generic form (spec 3, "Form field
// config"), and the value each kind of field holds (spec 3, "Values"). Configs are parsed at the
// edge so the engine only ever sees known field types.

/** Ids arrive as numbers or text; the engine keys everything by text. */
const keySchema = z.union([z.string().min(1), z.number().int()]).transform(String);

export const fieldTypeSchema = z.string().transform((type, ctx): FieldType => {
  if ((fieldTypes as readonly string[]).includes(type)) return type as FieldType;
  ctx.addIssue({ code: 'custom', message: formMessage('unknownFieldType', { type }).text });
  return z.NEVER;
});

export interface FieldOption {
  id: string;
  name: string;
  disabled?: boolean | undefined;
  children?: FieldOption[] | undefined;
}

/** Options of select, radio, checkbox and cascader fields; cascader nodes can be disabled. */
export const fieldOptionSchema: z.ZodType<FieldOption, unknown> = z.lazy(() =>
  z.object({
    id: keySchema,
    name: z.string(),
    disabled: z.boolean().optional(),
    children: z.array(fieldOptionSchema).optional(),
  }),
);

export const ValueMethod = { FieldReference: 1, Constant: 2 } as const;
export type ValueMethod = (typeof ValueMethod)[keyof typeof ValueMethod];

/** One operand of a calculated field: a reference to another field or a constant (spec 9). */
export const calculationValueSchema = z.discriminatedUnion('valueMethod', [
  z.object({ valueMethod: z.literal(ValueMethod.FieldReference), fieldId: keySchema }),
  z.object({ valueMethod: z.literal(ValueMethod.Constant), value: z.union([z.string(), z.number()]).transform(String) }),
]);
export type CalculationValue = z.infer<typeof calculationValueSchema>;

const operatorValues = Object.values(CalculationOperator);
export const calculationOperatorSchema = z
  .number()
  .int()
  .refine((n): n is CalculationOperator => (operatorValues as number[]).includes(n), 'unknown calculation operator')
  .transform((n) => n as CalculationOperator);

/** valueList[i] and valueList[i + 1] are joined by calculationWays[i]. */
export const calculationConditionGroupSchema = z
  .object({
    valueList: z.array(calculationValueSchema).min(1),
    calculationWays: z.array(calculationOperatorSchema),
  })
  .refine((g) => g.calculationWays.length === g.valueList.length - 1, {
    message: 'calculationWays must have one operator between each two values',
    path: ['calculationWays'],
  });
export type CalculationConditionGroup = z.infer<typeof calculationConditionGroupSchema>;

export const privateConfigSchema = z.object({
  numberFormat: z.number().int().optional(),
  roundingWay: z.number().int().optional(),
  dynamicConfig: z.object({ isDynamicField: z.boolean().optional() }).optional(),
});
export type PrivateConfig = z.infer<typeof privateConfigSchema>;

export const fieldConfigSchema = z.object({
  date: z.object({ dateFormat: z.string().min(1).optional() }).optional(),
  money: z.object({ isWordAmount: z.boolean().optional(), isWithUnit: z.boolean().optional() }).optional(),
  fieldContent: z.object({ contentType: z.number().int().optional() }).optional(),
  calculationConditionGroup: calculationConditionGroupSchema.optional(),
});
export type FieldConfigDetails = z.infer<typeof fieldConfigSchema>;

/** The alterEditStatus that makes a field editable during contract alteration (spec 4). */
export const alterEditableStatus = 2;

export const formFieldSchema = z.object({
  id: keySchema,
  name: z.string(),
  type: fieldTypeSchema,
  rawType: z.string().optional(),
  required: z.boolean().default(false),
  placeholder: z.string().optional(),
  options: z.array(fieldOptionSchema).optional(),
  disabled: z.boolean().optional(),
  isEdit: z.boolean().optional(),
  preview: z.boolean().optional(),
  maxlength: z.number().int().positive().optional(),
  clearable: z.boolean().optional(),
  filterable: z.boolean().optional(),
  remote: z.boolean().optional(),
  tag: z.union([z.boolean(), z.string()]).optional(),
  privateConfig: privateConfigSchema.optional(),
  fieldConfig: fieldConfigSchema.optional(),
  alterEditStatus: z.number().int().optional(),
  partyType: z.union([z.literal(PartyType.Inner), z.literal(PartyType.Outer)]).optional(),
  /** A party picker with counterpartMultiple 1 keeps only the first party (spec 4). */
  counterpartMultiple: z.number().int().optional(),
  /** A people or department field that takes several entries (defined here; one without it). */
  multiple: z.boolean().optional(),
  subjectGroup: z.union([z.string(), z.number()]).optional(),
  bookmarkNames: z.array(z.string()).optional(),
});
export type FormField = z.infer<typeof formFieldSchema>;
/** What the server sends (before defaults and id normalisation). */
export type FormFieldInput = z.input<typeof formFieldSchema>;

// ----- Values (spec 3) -----

export { moneySchema };

export const uploadValueSchema = z.object({ id: keySchema, name: z.string(), file: z.string() });
export type UploadValue = z.infer<typeof uploadValueSchema>;

const partySubtypeSchema = z.union([z.literal(PartySubtype.Organization), z.literal(PartySubtype.NaturalPerson)]);

/** A chosen party; the new blank party has id 0. */
export const partyValueSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  name: z.string(),
  keyword: z.string().optional(),
  contactsName: z.string().optional(),
  contactsPhone: z.string().optional(),
  subtype: partySubtypeSchema.optional(),
  /**
   * A party typed in ('new party') and given its counterparty id by the desktop when the contract
   * was saved: the server makes the counterparty record with that id when it stores the contract
   * (defined here; the spec's new blank party has id 0 until then).
   */
  isNew: z.literal(true).optional(),
});
export type PartyValue = z.infer<typeof partyValueSchema>;

export const externalPartyDetailSchema = z.object({
  subType: z.enum(['organization', 'naturalPerson']),
  idNumber: z.string().optional(),
  address: z.string().optional(),
  contactInfo: z.string().optional(),
  email: z.string().optional(),
  fax: z.string().optional(),
  rating: z.number().int().optional(),
  riskCount: z.number().int().nonnegative().optional(),
  isConnectedTransaction: z.boolean().optional(),
  subtype: partySubtypeSchema.optional(),
});
export type ExternalPartyDetail = z.infer<typeof externalPartyDetailSchema>;

/** A counterpart search result (spec 3). */
export const counterpartSearchResultSchema = z.object({
  id: keySchema,
  name: z.string(),
  fieldDetailMap: z.record(z.string(), z.unknown()).optional(),
  bankItemList: z.array(z.unknown()).optional(),
  contactItemList: z.array(z.unknown()).optional(),
});
export type CounterpartSearchResult = z.infer<typeof counterpartSearchResultSchema>;

export const agentValueSchema = z.object({ lawFirmIDList: z.array(keySchema), lawyerIDList: z.array(keySchema) });
export type AgentValue = z.infer<typeof agentValueSchema>;
/** `state` 2 is disabled (spec 3's convention): named where chosen already, not offered anew. */
export const lawFirmSchema = z.object({ id: keySchema, name: z.string(), state: z.number().int().default(1) });
export const lawyerSchema = z.object({ id: keySchema, name: z.string(), lawFirmID: keySchema, state: z.number().int().default(1) });
/** A relationProject field's value: the one project chosen (spec 3 "Project" shows only the id). */
export const projectValueSchema = z.object({ id: keySchema, name: z.string() });
export type ProjectValue = z.infer<typeof projectValueSchema>;

/** A clause statement's content: paragraphs of text and field parts. */
export const statementPartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('field'), fieldId: keySchema }),
]);
export type StatementPart = z.infer<typeof statementPartSchema>;
export const statementParagraphSchema = z.array(statementPartSchema);

export const clauseFieldSchema = z.object({
  id: keySchema,
  name: z.string(),
  required: z.boolean().optional(),
  positionName: z.string().optional(),
});
export type ClauseField = z.infer<typeof clauseFieldSchema>;

export const statementSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  content: z.array(statementParagraphSchema),
  fieldList: z.array(clauseFieldSchema),
  labelItemList: z.array(z.unknown()).optional(),
});
export type Statement = z.infer<typeof statementSchema>;

export const clauseSchema = z.object({
  labelID: keySchema,
  isNullable: z.boolean(),
  statementList: z.array(statementSchema),
});
export type Clause = z.infer<typeof clauseSchema>;

export const relatedContractSchema = z.object({ contractName: z.string(), relationshipID: z.number().int() });
export const relationGroupSchema = z.object({
  relationType: z.number().int(),
  relatedContracts: z.array(relatedContractSchema),
});
export type RelationGroup = z.infer<typeof relationGroupSchema>;
export const relatedContractsValueSchema = z.array(relationGroupSchema);

export const duplicateResultSchema = z.object({
  contractNumber: z.string(),
  contractList: z.array(z.object({ id: keySchema, name: z.string() })),
});
export type DuplicateResult = z.infer<typeof duplicateResultSchema>;

/** Contracts in number order, grouped as the duplicate check answers (server and replica alike). */
export function groupByNumber(rows: readonly { id: string; name: string; number: string | null }[]): { list: DuplicateResult[] } {
  const byNumber = new Map<string, DuplicateResult>();
  for (const row of rows) {
    if (row.number === null) continue;
    const result = byNumber.get(row.number) ?? { contractNumber: row.number, contractList: [] };
    result.contractList.push({ id: row.id, name: row.name });
    byNumber.set(row.number, result);
  }
  return { list: [...byNumber.values()] };
}

export const bankAccountValueSchema = z.string();

/** Parses one field config, or explains (by field path) what is wrong with it. */
export function parseFormField(input: unknown) {
  return formFieldSchema.safeParse(input);
}

/** Parses the whole list the server sends. */
export const formFieldsSchema = z.array(formFieldSchema);

/** A money value with an amount (while typing, the amount can be missing). */
export function hasAmount(value: unknown): value is Money {
  return typeof value === 'object' && value !== null && typeof (value as { amount?: unknown }).amount === 'number';
}

/** No value: missing, blank text or an empty list. */
export function isBlankValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** The schema of the value each field type holds, where the type has a structured value. */
export function fieldValueSchema(type: FieldType): z.ZodType | null {
  switch (type) {
    case 'money':
      return moneySchema.nullable();
    case 'upload':
    case 'customAttachment':
      return uploadValueSchema.nullable();
    case 'inputSelect':
    case 'inputSelectV2':
      return z.array(partyValueSchema).nullable();
    case 'agentInformation':
      return agentValueSchema.nullable();
    case 'relatedContracts':
      return relatedContractsValueSchema;
    case 'bankAccount':
      return bankAccountValueSchema;
    default:
      return null;
  }
}
