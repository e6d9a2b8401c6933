import type { TFunction } from 'i18next';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import { formatMinorUnits } from '../../../src-shared/domain/money';
import { hiddenStatementId } from '../../../src-shared/form/clause';
import { formatDateDisplay, formatDateRangeDisplay } from '../../../src-shared/form/dates';
import { hasAmount, isBlankValue, type FieldOption, type FormField } from '../../../src-shared/form/field-config';
import { cascaderPath } from '../../../src-shared/form/options';

// A changed value as the contract's history shows it: by its field's type, as the form shows it
// in preview (money with its unit, days in the field's format, the names of parties, people and
// options, the chosen statement of a clause), so a before/after pair reads like the contract.

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names of a list of entries ({name}) or of a single one. */
function names(value: unknown): string[] {
  const entries = Array.isArray(value) ? value : [value];
  return entries.flatMap((entry) => (isRecord(entry) && typeof entry.name === 'string' && entry.name !== '' ? [entry.name] : typeof entry === 'string' ? [entry] : []));
}

function optionNames(options: readonly FieldOption[], value: unknown): string[] {
  const ids = (Array.isArray(value) ? value : [value]).map(String);
  return ids.map((id) => cascaderPath(options, id).map((option) => option.name).join(' / ') || id);
}

function clauseStatementName(clause: Clause | undefined, value: unknown, t: TFunction): string | null {
  if (!isRecord(value) || typeof value.statementId !== 'number') return null;
  if (value.statementId === hiddenStatementId) return t('form.doNotShowClause');
  return clause?.statementList.find((statement) => statement.id === value.statementId)?.name ?? String(value.statementId);
}

export function formatChangeValue(field: FormField | undefined, value: unknown, t: TFunction, clauses: readonly Clause[] = []): string {
  const empty = t('contractForm.empty');
  if (isBlankValue(value)) return empty;
  const list = (items: string[]) => (items.length > 0 ? items.join(t('contractForm.listSeparator')) : empty);
  switch (field?.type) {
    case 'money':
      return hasAmount(value) ? `${formatMinorUnits(value.amount)} ${t(`contractForm.currencies.${value.unit}`, { defaultValue: value.unit })}` : empty;
    case 'date':
    case 'date-time':
      return typeof value === 'string' ? formatDateDisplay(value, field.fieldConfig?.date?.dateFormat) || value : empty;
    case 'daterange':
      return Array.isArray(value) && value.length === 2 ? formatDateRangeDisplay([String(value[0]), String(value[1])], field.fieldConfig?.date?.dateFormat) : empty;
    case 'select':
    case 'multiselect':
    case 'radio':
    case 'checkbox':
    case 'cascader':
    case 'caseType':
      return list(optionNames(field.options ?? [], value));
    case 'bool':
      return value === true ? t('contractForm.yes') : t('contractForm.no');
    case 'clause':
      return clauseStatementName(clauses.find((clause) => clause.labelID === field.id), value, t) ?? empty;
    case 'relatedContracts':
      return list(Array.isArray(value) ? value.flatMap((group) => (isRecord(group) && Array.isArray(group.relatedContracts) ? group.relatedContracts.flatMap((row) => (isRecord(row) && typeof row.contractName === 'string' ? [row.contractName] : [])) : [])) : []);
    case 'inputSelect':
    case 'inputSelectV2':
    case 'people':
    case 'department':
    case 'upload':
    case 'customAttachment':
      return list(names(value));
    default:
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
      return list(names(value));
  }
}
