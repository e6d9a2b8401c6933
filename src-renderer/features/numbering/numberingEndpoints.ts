import type { NumberingKind } from '../../../src-shared/domain/numbering';

/** The endpoints of one numbering kind: contract_number/… or template_number/… (same shapes). */
export const numberingEndpoints = {
  contract: {
    rules: 'contractNumberRules',
    abbrSettings: 'contractNumberAbbrSettings',
    preview: 'contractNumberRulesPreview',
    saveRules: 'saveContractNumberRules',
    saveAbbr: 'saveContractNumberAbbrSetting',
    deleteAbbr: 'deleteContractNumberAbbrSetting',
  },
  template: {
    rules: 'templateNumberRules',
    abbrSettings: 'templateNumberAbbrSettings',
    preview: 'templateNumberRulesPreview',
    saveRules: 'saveTemplateNumberRules',
    saveAbbr: 'saveTemplateNumberAbbrSetting',
    deleteAbbr: 'deleteTemplateNumberAbbrSetting',
  },
} as const satisfies Record<NumberingKind, Record<string, string>>;
