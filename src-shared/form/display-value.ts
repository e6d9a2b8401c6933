import type { Clause } from '../domain/contract-forms';
import { formatMinorUnits } from '../domain/money';
import { catalogs } from '../i18n/catalogs';
import { dayFormat, dayTimeFormat } from '../i18n/days';
import { languageForLocale, type Language } from '../i18n/languages';
import { hiddenStatementId } from './clause';
import { formatDateDisplay, formatDateRangeDisplay } from './dates';
import { hasAmount, isBlankValue, type FieldOption, type FormField } from './field-config';
import { cascaderPath } from './options';

// A value as the form shows it in preview, by its field's type: money with its unit, days in the
// field's format or the reader's language's, the names of parties, people and options, the chosen statement of a clause. The
// contract's history (before/after) and its document (values at their bookmarks) read the same.

/** The words a shown value needs, in the reader's language. */
export interface DisplayWords {
  /** What an empty value reads as. */
  empty: string;
  yes: string;
  no: string;
  listSeparator: string;
  doNotShowClause: string;
  currency(unit: string): string;
  /** The reader's language: days are written as the form writes them in it (src-shared/i18n/days.ts). */
  language: string;
}

/** The words of a language's catalog; `empty` as given (the history shows '--', a document leaves a blank). */
export function catalogWords(language: Language, empty: string = catalogs[language].contractForm.empty): DisplayWords {
  const catalog = catalogs[language];
  const currencies: Record<string, string> = catalog.contractForm.currencies;
  return {
    language,
    empty,
    yes: catalog.contractForm.yes,
    no: catalog.contractForm.no,
    listSeparator: catalog.contractForm.listSeparator,
    doNotShowClause: catalog.form.doNotShowClause,
    currency: (unit) => currencies[unit] ?? unit,
  };
}

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

function clauseStatementName(clause: Pick<Clause, 'statementList'> | undefined, value: unknown, words: DisplayWords): string | null {
  if (!isRecord(value) || typeof value.statementId !== 'number') return null;
  if (value.statementId === hiddenStatementId) return words.doNotShowClause;
  return clause?.statementList.find((statement) => statement.id === value.statementId)?.name ?? String(value.statementId);
}

export function formatFieldValue(
  field: FormField | undefined,
  value: unknown,
  words: DisplayWords,
  clauses: readonly Pick<Clause, 'labelID' | 'statementList'>[] = [],
): string {
  const { empty } = words;
  if (isBlankValue(value)) return empty;
  const list = (items: string[]) => (items.length > 0 ? items.join(words.listSeparator) : empty);
  switch (field?.type) {
    case 'money':
      return hasAmount(value) ? `${formatMinorUnits(value.amount)} ${words.currency(value.unit)}` : empty;
    case 'date':
    case 'date-time': {
      const format = (field.type === 'date' ? dayFormat : dayTimeFormat)(words.language, field.fieldConfig?.date?.dateFormat);
      return typeof value === 'string' ? formatDateDisplay(value, format, languageForLocale(words.language)) || value : empty;
    }
    case 'daterange':
      return Array.isArray(value) && value.length === 2
        ? formatDateRangeDisplay([String(value[0]), String(value[1])], dayFormat(words.language, field.fieldConfig?.date?.dateFormat), languageForLocale(words.language))
        : empty;
    case 'select':
    case 'multiselect':
    case 'radio':
    case 'checkbox':
    case 'cascader':
    case 'caseType':
      return list(optionNames(field.options ?? [], value));
    case 'bool':
      return value === true ? words.yes : words.no;
    case 'clause':
      return clauseStatementName(clauses.find((clause) => clause.labelID === field.id), value, words) ?? empty;
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
