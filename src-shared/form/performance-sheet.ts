import Decimal from 'decimal.js';
import type { FormMode } from '../domain/enums';
import { formatMoney, type Money } from '../domain/money';
import { parseDate } from './dates';
import { hasAmount, isBlankValue } from './field-config';
import { formMessage, type FormIssue, type FormMessage } from './messages';
import { isMoneyEmpty, textMaxLength } from './validation';

// Spec 2 "Performance sheet table" and "Cooperation information", spec 3 "Performance sheet" and
// "Cooperative info row", spec 5 "Performance sheet and task forms", spec 9 "Tables".

export const sheetColumnTypes = [
  'textarea', // multi-line text
  'date', // yyyy-MM-dd
  'money', // amount and unit
  'number',
  'person', // single or multiple by singleSelect
  'radio', // single choice
  'checkbox', // multiple choice
  'performanceTime', // a date, or a time relative to a reference node
  'externalParty',
  'internalParty',
  'text', // single line, at most 1000 characters
] as const;
export type SheetColumnType = (typeof sheetColumnTypes)[number];

/** Comparators of the value-range rule. */
export const rangeComparators = ['equal', 'notEqual', 'greater', 'greaterOrEqual', 'less', 'lessOrEqual'] as const;
export type RangeComparator = (typeof rangeComparators)[number];

/** Conditions combined by and (mode 1) or by or (any other mode). */
export interface ValueRangeRule {
  mode: number;
  conditions: { comparator: RangeComparator; value: string }[];
}

export interface SheetColumn {
  id: string;
  name: string;
  type: SheetColumnType | 'index' | 'id';
  config?: { options?: { id: string; name: string }[]; singleSelect?: boolean; valueRange?: ValueRangeRule };
  isRequired?: boolean;
  isState?: boolean;
  disabled?: (row: readonly unknown[]) => boolean;
  influenceFieldIdIndex?: number;
}

/** A row: cell values in column order, with the special columns index (row number) and id (task id). */
export type SheetRow = unknown[];

export type PerformanceTimeValue = { kind: 'date'; date: string } | { kind: 'condition'; node: string; days: number | null };

// ----- Rows -----

const columnAt = (columns: readonly SheetColumn[], type: 'index' | 'id') => columns.findIndex((c) => c.type === type || c.name === type);

/** New rows get the current maximum index plus 1 (the first row is 1). */
export function nextRowIndex(columns: readonly SheetColumn[], rows: readonly SheetRow[]): number {
  const at = columnAt(columns, 'index');
  return rows.reduce<number>((max, row) => Math.max(max, Number(row[at]) || 0), 0) + 1;
}

/** '+增加一行': an empty row (no task id yet) numbered after the others. */
export function addRow(columns: readonly SheetColumn[], rows: readonly SheetRow[]): SheetRow[] {
  const index = nextRowIndex(columns, rows);
  const row = columns.map((column) => (column.type === 'index' || column.name === 'index' ? index : null));
  return [...rows, row];
}

/** In edit mode the last remaining row cannot be deleted. */
export function canDeleteRow(rows: readonly SheetRow[], mode: FormMode): boolean {
  return !(mode === 'edit' && rows.length <= 1);
}

export function deleteRow(rows: readonly SheetRow[], at: number, mode: FormMode): SheetRow[] {
  return canDeleteRow(rows, mode) ? rows.filter((_, i) => i !== at) : [...rows];
}

// ----- Layout -----

/** The full-screen dialog is 85% wide when columns × 13 exceeds 86, otherwise 50%. */
export function fullScreenDialogWidth(columnCount: number): '85%' | '50%' {
  return columnCount * 13 > 86 ? '85%' : '50%';
}

/** Table height by row count: 100 for at most 1, 200 for 2 to 5, 300 (the maximum) beyond. */
export function tableHeight(rowCount: number): 100 | 200 | 300 {
  if (rowCount <= 1) return 100;
  return rowCount <= 5 ? 200 : 300;
}

export const selectionColumnWidth = 55;
export const operationColumnWidth = 88;
export const cooperationOperationColumnWidth = 110;
/** Columns holding receivable or payable time are wider. */
export const wideTimeColumnNames: readonly string[] = ['receivable time', 'payable time', '应收时间', '应付时间'];

export function columnMinWidth(column: Pick<SheetColumn, 'name'>): 190 | 300 {
  return wideTimeColumnNames.includes(column.name.trim()) ? 300 : 190;
}

/** 'please fill in' + the column name; money reads 'please enter payment amount'. */
export function columnPlaceholder(column: Pick<SheetColumn, 'name' | 'type'>): FormMessage {
  return column.type === 'money' ? formMessage('enterPaymentAmount') : formMessage('pleaseFillIn', { name: column.name });
}

/** Extraction and relate-field buttons are offered on these column types (spec 5). */
export const extractableColumnTypes: readonly SheetColumnType[] = ['number', 'money', 'date', 'text', 'textarea', 'externalParty', 'internalParty'];

// ----- Validation -----

const compare: Record<RangeComparator, (a: Decimal, b: Decimal) => boolean> = {
  equal: (a, b) => a.equals(b),
  notEqual: (a, b) => !a.equals(b),
  greater: (a, b) => a.greaterThan(b),
  greaterOrEqual: (a, b) => a.greaterThanOrEqualTo(b),
  less: (a, b) => a.lessThan(b),
  lessOrEqual: (a, b) => a.lessThanOrEqualTo(b),
};

export const andMode = 1;

/** A number (or money in major units) against the rule; 'value range invalid' when it fails. */
export function checkValueRange(value: Decimal.Value, rule: ValueRangeRule): FormMessage | null {
  if (rule.conditions.length === 0) return null;
  const number = new Decimal(value);
  const results = rule.conditions.map((c) => compare[c.comparator](number, new Decimal(c.value)));
  const passes = rule.mode === andMode ? results.every(Boolean) : results.some(Boolean);
  return passes ? null : formMessage('valueRangeInvalid');
}

function cellNumber(column: SheetColumn, value: unknown): Decimal | null {
  if (column.type === 'money') return hasAmount(value) ? new Decimal(value.amount).dividedBy(100) : null;
  if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()))) return new Decimal(String(value).trim());
  return null;
}

function cellEmpty(column: SheetColumn, value: unknown): boolean {
  if (column.type === 'money') return isMoneyEmpty(value);
  if (column.type === 'performanceTime') {
    const time = value as PerformanceTimeValue | null | undefined;
    return !time || (time.kind === 'date' ? time.date === '' : time.node === '' || time.days === null);
  }
  return isBlankValue(value);
}

/** A missing performance time asks for the part the user chose: condition time or date time. */
function requiredCellMessage(column: SheetColumn, value: unknown): FormMessage {
  if (column.type === 'performanceTime') {
    return (value as PerformanceTimeValue | null | undefined)?.kind === 'condition' ? formMessage('conditionTimeRequired') : formMessage('dateTimeRequired');
  }
  return formMessage('pleaseEnter', { name: column.name });
}

/** One row's issues, keyed `rowIndex.columnId`. */
export function validateSheetRow(columns: readonly SheetColumn[], row: readonly unknown[], rowIndex: number): FormIssue[] {
  return columns.flatMap((column, at): FormIssue[] => {
    if (column.type === 'index' || column.type === 'id') return [];
    const value = row[at];
    const key = `${rowIndex}.${column.id}`;
    const issue = (message: FormMessage | null) => (message ? [{ field: key, message }] : []);
    if (cellEmpty(column, value)) return issue(column.isRequired || column.type === 'performanceTime' ? requiredCellMessage(column, value) : null);
    if ((column.type === 'text' || column.type === 'textarea') && String(value).length > textMaxLength) {
      return issue(formMessage('textTooLong', { max: String(textMaxLength) }));
    }
    if (column.type === 'date' && !parseDate(String(value)).ok) return issue(formMessage('invalidDate'));
    const rule = column.config?.valueRange;
    const number = rule && (column.type === 'number' || column.type === 'money') ? cellNumber(column, value) : null;
    if (rule && number) return issue(checkValueRange(number, rule));
    return [];
  });
}

export function validateSheet(columns: readonly SheetColumn[], rows: readonly SheetRow[]): FormIssue[] {
  return rows.flatMap((row, i) => validateSheetRow(columns, row, i));
}

// ----- Cooperation information -----

export interface CooperativeInfoRow {
  contractID: string;
  updateTime: string;
  state: string | number;
  amount: Money | null;
  operatorList: string[];
  [column: string]: unknown;
}

/** Preview shows the first 2 entries and no action column; otherwise all with a 'view' action. */
export function cooperationTable(rows: readonly CooperativeInfoRow[], mode: FormMode) {
  const preview = mode === 'preview';
  const shown = preview ? rows.slice(0, 2) : [...rows];
  return {
    rows: shown,
    actionColumn: !preview,
    height: tableHeight(shown.length),
    operationColumnWidth: cooperationOperationColumnWidth,
  };
}

/** Amount shown divided by 100, formatted, followed by the unit. */
export function cooperationAmount(amount: Money | null): string {
  return amount ? formatMoney(amount) : '';
}

/** The 'view' action goes to the contract's detail. */
export function cooperationViewLink(contractID: string): string {
  return `/myContract/detail?${new URLSearchParams({ contractId: contractID }).toString()}`;
}
