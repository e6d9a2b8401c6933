import type { TFunction } from 'i18next';
import { cellText as sharedCellText, optionLabelKey, type FieldOption } from '../../../src-shared/domain/ledger-cells';
import type { LedgerField } from '../../../src-shared/domain/ledger';
import { formatDateTime, formatDay } from '../../i18n/format';

// A ledger cell and a select option in the user's words (src-shared/domain/ledger-cells.ts, the
// same text the Excel export writes): days and instants formatted with luxon per language.

export { optionsOf, type FieldOption } from '../../../src-shared/domain/ledger-cells';

export function optionLabel(t: TFunction, field: Pick<LedgerField, 'id'>, option: FieldOption): string {
  const key = optionLabelKey(field, option);
  return key ? t(key, { defaultValue: option.name }) : option.name;
}

export function cellText(t: TFunction, language: string, field: LedgerField, value: unknown): string {
  return sharedCellText(
    { option: (f, option) => optionLabel(t, f, option), day: (day) => formatDay(day, language, typeof field.config.dateFormat === 'string' ? field.config.dateFormat : undefined), instant: (iso) => formatDateTime(iso, language) },
    field,
    value,
  );
}
