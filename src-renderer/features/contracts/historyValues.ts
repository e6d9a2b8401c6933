import type { TFunction } from 'i18next';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import { formatFieldValue, type DisplayWords } from '../../../src-shared/form/display-value';
import type { FormField } from '../../../src-shared/form/field-config';

// A changed value as the contract's history shows it: as the form shows it in preview
// (src-shared/form/display-value.ts), so a before/after pair reads like the contract.

function historyWords(t: TFunction, language: string): DisplayWords {
  return {
    empty: t('contractForm.empty'),
    yes: t('contractForm.yes'),
    no: t('contractForm.no'),
    listSeparator: t('contractForm.listSeparator'),
    doNotShowClause: t('form.doNotShowClause'),
    currency: (unit) => t(`contractForm.currencies.${unit}`, { defaultValue: unit }),
    language,
  };
}

export function formatChangeValue(field: FormField | undefined, value: unknown, t: TFunction, language: string, clauses: readonly Clause[] = []): string {
  return formatFieldValue(field, value, historyWords(t, language), clauses);
}
