import { z } from 'zod';
import { idSchema } from './contract';
import { NumberDateFormat, ResetCycle, RuleScope } from './enums';

// Numbering rules, abbreviations and editors (spec 3 "Numbering rule", spec 4 "Numbering enums").

export const numberingKinds = ['contract', 'template'] as const;
export type NumberingKind = (typeof numberingKinds)[number];

const literalUnion = <T extends number>(values: readonly T[]) =>
  z.union(values.map((v) => z.literal(v)) as unknown as [z.ZodLiteral<T>, ...z.ZodLiteral<T>[]]);

export const resetCycleSchema = literalUnion(Object.values(ResetCycle));
export const ruleScopeSchema = literalUnion(Object.values(RuleScope));
export const numberDateFormatSchema = literalUnion(Object.values(NumberDateFormat));

/** Serial numbers stay far below 2^31 (the counter column is an integer). */
const serialSchema = z.number().int().min(0).max(999_999_999);

/** The rule as the form edits it (spec 3: digits, startNum, reStartNum, isNatural, resetCycle). */
export const numberingRuleFormSchema = z
  .object({
    /** The contract type (scope 1) or department (scopes 2, 3) the rule is for; none for scope 0. */
    scopeId: idSchema.nullable().default(null),
    digits: z.number().int().min(1).max(9).default(1),
    startNum: serialSchema.default(1),
    reStartNum: serialSchema.default(1),
    isNatural: z.boolean().default(true),
    resetCycle: resetCycleSchema.default(ResetCycle.Never),
  })
  .strict();
export type NumberingRuleForm = z.infer<typeof numberingRuleFormSchema>;

/** The rule as stored (spec 3: digits, isNatural, startNumber, resetStartNumber, resetCycle, recount, inUse). */
export const numberingRuleSchema = z.object({
  id: idSchema,
  ruleScope: ruleScopeSchema,
  scopeId: idSchema.nullable(),
  digits: z.number().int(),
  isNatural: z.boolean(),
  startNumber: z.number().int(),
  resetStartNumber: z.number().int(),
  resetCycle: resetCycleSchema,
  recount: z.boolean(),
  inUse: z.boolean(),
  version: z.number().int(),
});
export type NumberingRuleRow = z.infer<typeof numberingRuleSchema>;

export const abbrSettingSchema = z.object({
  id: idSchema,
  ruleScope: ruleScopeSchema,
  scopeId: idSchema.nullable(),
  abbr: z.string(),
  dateFormat: numberDateFormatSchema.nullable(),
  version: z.number().int(),
});
export type AbbrSetting = z.infer<typeof abbrSettingSchema>;

/** Preview rule (spec 3): what a number will look like and what it depends on. */
export const previewRuleSchema = z.object({
  id: idSchema,
  /** The next number as it would be written now, e.g. 'CG-20261121-0001'. */
  format: z.string(),
  /** The rule scope the rule is chosen by. */
  conditionType: ruleScopeSchema,
  /** The contract type or department ids the rule is for (empty for the default rule). */
  values: z.array(idSchema),
  /** The form fields whose values choose the rule ('contractType', 'department'). */
  referenceFields: z.array(z.string()),
  /**
   * Where the rule's counters stand (the numbering screen's previews of a rule being edited count
   * on from them, as the allocator does): the serial handed out last in the current period, and
   * whether any period was counted yet.
   */
  counters: z.object({ lastInPeriod: z.number().int().nullable(), counted: z.boolean() }).optional(),
});
export type PreviewRule = z.infer<typeof previewRuleSchema>;

/** Duplicate result (spec 3): a number and the contracts (or templates) carrying it. */
export const duplicateResultSchema = z.object({
  contractNumber: z.string(),
  contractList: z.array(z.object({ id: idSchema, name: z.string() })),
});
export type DuplicateResult = z.infer<typeof duplicateResultSchema>;
