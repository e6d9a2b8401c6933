import { z } from 'zod';
import { contractStatusSchema, idSchema } from './contract';
import { fieldTypes } from './enums';
import { templateDocumentSchema } from '../contract-document/schema';

// The generic form's configuration and the contract and template documents it edits (spec 3
// "Form field config", "Values", "Clause").

const optionSchema = z.object({ id: z.union([z.string().max(64), z.number().int()]), name: z.string().max(200) }).strict();

/** Form field config (spec 3). */
export const fieldConfigSchema = z
  .object({
    id: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(100),
    type: z.enum(fieldTypes),
    rawType: z.string().max(50).optional(),
    required: z.boolean().optional(),
    placeholder: z.string().max(200).optional(),
    options: z.array(optionSchema).max(1000).optional(),
    disabled: z.boolean().optional(),
    isEdit: z.boolean().optional(),
    preview: z.boolean().optional(),
    maxlength: z.number().int().min(1).max(100_000).optional(),
    clearable: z.boolean().optional(),
    filterable: z.boolean().optional(),
    remote: z.boolean().optional(),
    tag: z.string().max(50).optional(),
    privateConfig: z
      .object({
        numberFormat: z.number().int().optional(),
        roundingWay: z.number().int().optional(),
        dynamicConfig: z.object({ isDynamicField: z.boolean().optional() }).strict().optional(),
      })
      .strict()
      .optional(),
    fieldConfig: z
      .object({
        date: z.object({ dateFormat: z.string().max(50).optional() }).strict().optional(),
        money: z.object({ isWordAmount: z.boolean().optional(), isWithUnit: z.boolean().optional() }).strict().optional(),
        fieldContent: z.object({ contentType: z.number().int().optional() }).strict().optional(),
        calculationConditionGroup: z
          .object({ valueList: z.array(z.unknown()).max(100).optional(), calculationWays: z.array(z.unknown()).max(100).optional() })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    /** In contract alteration a field is editable only when this is 2 (spec 4). */
    alterEditStatus: z.number().int().optional(),
    partyType: z.union([z.literal(1), z.literal(2)]).optional(),
    /** A party picker with counterpartMultiple 1 keeps only the first party (spec 4). */
    counterpartMultiple: z.number().int().optional(),
    /** Defined here: a people or department field that takes several entries (one without it). */
    multiple: z.boolean().optional(),
    subjectGroup: z.string().max(100).optional(),
    bookmarkNames: z.array(z.string().max(100)).max(50).optional(),
  })
  .strict();
export type FieldConfig = z.infer<typeof fieldConfigSchema>;

/** A paragraph of a statement: text and field parts (spec 3, "content as JSON paragraphs"). */
const paragraphSchema = z.array(
  z.union([
    z.object({ type: z.literal('text'), text: z.string().max(10_000) }).strict(),
    z.object({ type: z.literal('field'), fieldId: z.string().max(64) }).strict(),
  ]),
);

/** A clause statement; id -1 is the synthetic 'do not show this clause' (spec 9). */
export const clauseStatementSchema = z
  .object({
    id: z.number().int().min(-1),
    name: z.string().trim().min(1).max(200),
    content: z.array(paragraphSchema).max(200),
    fieldList: z.array(fieldConfigSchema).max(100),
    labelItemList: z.array(z.object({ id: z.string().max(64), name: z.string().max(100) }).strict()).max(100),
  })
  .strict();
export type ClauseStatement = z.infer<typeof clauseStatementSchema>;

export const clauseSchema = z
  .object({
    labelID: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(200),
    isNullable: z.boolean(),
    bookmarkName: z.string().max(100).nullable().default(null),
    statementList: z.array(clauseStatementSchema).max(100),
  })
  .strict();
export type Clause = z.infer<typeof clauseSchema>;

/** A changed form value of an alteration. */
export const alterationChangeSchema = z.object({ fieldId: z.string(), name: z.string(), before: z.unknown(), after: z.unknown() });
export type AlterationChange = z.infer<typeof alterationChangeSchema>;

/** UTF-8 bytes of a value's JSON (what a write of it carries and stores). */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value) ?? '';
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * At most this many bytes of form values (as JSON) per write: far above a real form (a 60-field
 * contract with clauses and tables is tens of KiB), and small enough that an offline edit always
 * fits one sync push.
 */
export const maxFormValuesBytes = 256 * 1024;
export const formValuesTooLargeMessage = `form values may be at most ${maxFormValuesBytes / 1024} KiB`;

/** Form values keyed by field id (spec 3, "Values"); checked against the template's field configs. */
export const formValuesSchema = z.record(z.string().max(64), z.unknown()).refine((values) => jsonBytes(values) <= maxFormValuesBytes, formValuesTooLargeMessage);

export const contractDetailSchema = z.object({
  id: idSchema,
  name: z.string(),
  contractNumber: z.string().nullable(),
  contractNumberAuto: z.boolean(),
  status: contractStatusSchema.nullable(),
  contractTypeId: idSchema.nullable(),
  templateId: idSchema.nullable(),
  formValues: z.record(z.string(), z.unknown()),
  responsibleUserId: idSchema.nullable(),
  departmentId: idSchema.nullable(),
  archiveFileId: idSchema.nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});
export type ContractDetail = z.infer<typeof contractDetailSchema>;

export const templateDetailSchema = z.object({
  id: idSchema,
  name: z.string(),
  templateNumber: z.string().nullable(),
  contractTypeId: idSchema.nullable(),
  status: contractStatusSchema,
  /** The author (who may change it, beside administrators); absent from catalogues kept before it was sent. */
  createdBy: idSchema.nullable().optional(),
  fields: z.array(fieldConfigSchema),
  clauses: z.array(clauseSchema),
  /** The Word document drafting fills (issue 29); null (or absent, in a catalogue kept before) when it has none. */
  document: templateDocumentSchema.nullable().optional(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;
