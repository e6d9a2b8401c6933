import { z } from 'zod';
import { idSchema } from '../domain/contract';
import {
  abbrSettingSchema,
  duplicateResultSchema,
  numberDateFormatSchema,
  numberingRuleFormSchema,
  numberingRuleSchema,
  previewRuleSchema,
  ruleScopeSchema,
  type NumberingKind,
} from '../domain/numbering';
import { apiPrefix, endpoint, none, trimmed, type Endpoint } from './endpoint';

// Numbering (spec 7 "Numbering"). The spec records these paths without the /api/v1 prefix; they
// are served under it like every other call (docs/api/numbering.md).

const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });

export const numberingRulesSchema = z.object({ ruleScope: ruleScopeSchema.nullable(), list: z.array(numberingRuleSchema) });

/** The saved rule set: one scope in use, and one rule per contract type or department under it. */
export const saveNumberingRulesSchema = z
  .object({
    ruleScope: ruleScopeSchema,
    rules: z.array(numberingRuleFormSchema).min(1).max(500),
  })
  .strict();

export const saveAbbrSettingSchema = z
  .object({
    ruleScope: ruleScopeSchema,
    scopeId: idSchema.nullable().default(null),
    abbr: z
      .string()
      .trim()
      .max(20)
      .regex(/^[\p{L}\p{N}_-]*$/u, 'letters, digits, - and _ only'),
    dateFormat: numberDateFormatSchema.nullable().default(null),
  })
  .strict();

/** checkAll=true lists every duplicated number; otherwise one number is checked. */
export const checkDuplicateQuerySchema = z
  .object({
    contractNumber: trimmed(100).optional(),
    checkAll: z.enum(['true', 'false']).optional(),
    /** The contract (or template) being edited, which does not duplicate itself. */
    excludeId: idSchema.optional(),
  })
  .strict()
  .superRefine((query, context) => {
    if (query.checkAll !== 'true' && !query.contractNumber) {
      context.addIssue({ code: 'custom', path: ['contractNumber'], message: 'please enter the number' });
    }
  });

/** The endpoints one numbering kind has at `contract_number/…` or `template_number/…`. */
function kindEndpoints(kind: NumberingKind) {
  const base = `${apiPrefix}/${kind}_number`;
  return {
    rules: endpoint({ method: 'GET', path: `${base}/rules`, auth: true, query: none, body: none, response: numberingRulesSchema }),
    saveRules: endpoint({ method: 'POST', path: `${base}/rules`, auth: true, query: none, body: saveNumberingRulesSchema, response: numberingRulesSchema }),
    abbrSettings: endpoint({ method: 'GET', path: `${base}/abbr_setting`, auth: true, query: none, body: none, response: listOf(abbrSettingSchema) }),
    saveAbbrSetting: endpoint({ method: 'POST', path: `${base}/abbr_setting`, auth: true, query: none, body: saveAbbrSettingSchema, response: abbrSettingSchema }),
    deleteAbbrSetting: endpoint({
      method: 'DELETE', path: `${base}/abbr_setting`, auth: true, query: z.object({ id: idSchema }).strict(), body: none,
      response: z.object({ id: idSchema, deleted: z.literal(true) }),
    }),
    preview: endpoint({ method: 'GET', path: `${base}/rules/preview`, auth: true, query: none, body: none, response: listOf(previewRuleSchema) }),
    checkDuplicate: endpoint({
      method: 'GET', path: `${base}/check_duplicate`, auth: true, query: checkDuplicateQuerySchema, body: none, response: listOf(duplicateResultSchema),
    }),
  };
}

const contractNumber = kindEndpoints('contract');
const templateNumber = kindEndpoints('template');

export const numberingEndpoints = {
  contractTypeList: endpoint({
    method: 'GET', path: `${apiPrefix}/contract_types/list`, auth: true, query: none, body: none,
    response: listOf(z.object({ id: idSchema, name: z.string(), parentId: idSchema.nullable() })),
  }),
  /** Designates a user's main department (rule scope 2); defined here. */
  designateDepartment: endpoint({
    method: 'POST', path: `${apiPrefix}/departments/designate`, auth: true, query: none,
    body: z.object({ userId: idSchema, departmentId: idSchema }).strict(),
    response: z.object({ userId: idSchema, departmentId: idSchema }),
  }),
  contractNumberRules: contractNumber.rules,
  saveContractNumberRules: contractNumber.saveRules,
  contractNumberAbbrSettings: contractNumber.abbrSettings,
  saveContractNumberAbbrSetting: contractNumber.saveAbbrSetting,
  deleteContractNumberAbbrSetting: contractNumber.deleteAbbrSetting,
  contractNumberRulesPreview: contractNumber.preview,
  contractNumberCheckDuplicate: contractNumber.checkDuplicate,
  templateNumberRules: templateNumber.rules,
  saveTemplateNumberRules: templateNumber.saveRules,
  templateNumberAbbrSettings: templateNumber.abbrSettings,
  saveTemplateNumberAbbrSetting: templateNumber.saveAbbrSetting,
  deleteTemplateNumberAbbrSetting: templateNumber.deleteAbbrSetting,
  templateNumberRulesPreview: templateNumber.preview,
  templateNumberCheckDuplicate: templateNumber.checkDuplicate,
  /** The auto-numbering preview for a contract being drafted (spec 7, path not shown; defined here). */
  contractNumberAutoPreview: endpoint({
    method: 'GET', path: `${apiPrefix}/contract_number/auto_preview`, auth: true,
    query: z.object({ contractTypeID: idSchema.optional() }).strict(), body: none, response: listOf(previewRuleSchema),
  }),
  contractNumberEditors: endpoint({
    method: 'GET', path: `${apiPrefix}/contract_number/editors`, auth: true, query: none, body: none,
    response: z.object({ editors: z.array(idSchema) }),
  }),
  saveContractNumberEditors: endpoint({
    method: 'POST', path: `${apiPrefix}/contract_number/editors`, auth: true, query: none,
    body: z.object({ editors: z.array(idSchema).max(1000) }).strict(),
    response: z.object({ editors: z.array(idSchema) }),
  }),
} as const satisfies Record<string, Endpoint>;
