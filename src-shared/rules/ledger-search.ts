import { DateTime } from 'luxon';
import type { TaskState } from '../domain/enums';
import { nameFieldId, type FilterCondition, type LedgerField, type LedgerRow, type LedgerSearch, type SortField } from '../domain/ledger';
import { catalogueField, timeColumnOfTaskType, type FilterKind } from '../domain/ledger-fields';
import { invalidFields, type AppFailure } from '../errors';
import { effectiveState, effectiveStateFilter, type EffectiveStateFilter } from './performance';
import { rangeInvertedMessage } from './range-filter';

// What performances/search asks (spec 7), decided once for both answers: the server turns the
// plan into PostgreSQL (src-server/ledger/search.ts), the replica into SQLite
// (src-main/core/ledger/scene-search.ts). Bad filters are refused here with one message, so the
// desktop refuses offline exactly what the server refuses.

/** One filter's condition; undefined when it asks nothing (e.g. a range with both bounds empty). */
export type FilterPlan =
  /** A system text column: contains `word` and is one of `values` (each when given). */
  | { op: 'text'; field: string; word?: string; values?: string[] }
  /** A contract form value as text: contains `word` or is one of `values`. */
  | { op: 'form'; field: string; word?: string; values?: string[] }
  | { op: 'range'; field: string; kind: 'number' | 'date' | 'timestamp'; from?: number | string; to?: number | string }
  | { op: 'set'; field: string; values: string[] | number[] }
  /** The task's effective state (overdue once due) is one of the asked states, on the plan's `today`. */
  | ({ op: 'state'; field: string } & EffectiveStateFilter);

export interface PlannedFilter {
  /** A condition on the contract, not on the performance record. */
  contractSide: boolean;
  plan: FilterPlan;
}

export interface SearchPlan {
  /** The columns, 'name' first. */
  titles: LedgerField[];
  performanceId: string | null;
  q: string | undefined;
  filters: PlannedFilter[];
  /** Null: newest update first. */
  sort: { field: string; ascending: boolean } | null;
  /** No keyword and no filter at all (the server may answer the count from its kept totals). */
  unfiltered: boolean;
  offset: number;
  limit: number;
  /** The organisation's day the task states are read on (yyyy-MM-dd). */
  today: string;
}

/** What a search knows of its scene. */
export interface SearchScene {
  titleIDs: string[];
  performanceId: string | null;
  filter: FilterCondition[];
  sortField: SortField | null;
}

function badFilter(path: string, message: string): AppFailure {
  return invalidFields([{ path, message }]);
}

type Bound = number | string | null | undefined;
const isEmpty = (value: Bound) => value === undefined || value === null || value === '';

function numberBound(path: string, value: Bound): number | undefined {
  if (isEmpty(value)) return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) throw badFilter(path, 'must be a number');
  return number;
}

/**
 * Whether `text` is a day as luxon's 'yyyy-MM-dd' reads it. The usual form (ASCII digits) is
 * checked here against the calendar, which is what luxon decides for it, without building its
 * parser on every search; anything else is left to luxon.
 */
function isDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return DateTime.fromFormat(text, 'yyyy-MM-dd').isValid;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function dateBound(path: string, value: Bound): string | undefined {
  if (isEmpty(value)) return undefined;
  if (typeof value !== 'string' || !isDay(value)) throw badFilter(path, 'must be a date (yyyy-MM-dd)');
  return value;
}

/** A range from two bounds; both bounds empty means no condition (spec 5). */
function range(path: string, field: string, kind: 'number' | 'date' | 'timestamp', from: number | string | undefined, to: number | string | undefined): FilterPlan | undefined {
  if (from !== undefined && to !== undefined && from > to) throw badFilter(path, rangeInvertedMessage);
  if (from === undefined && to === undefined) return undefined;
  return { op: 'range', field, kind, ...(from !== undefined && { from }), ...(to !== undefined && { to }) };
}

function textValues(values: readonly (string | number)[] | undefined): string[] | undefined {
  return values && values.length > 0 ? values.map(String) : undefined;
}

function setPlan(path: string, field: string, kind: FilterKind, values: readonly (string | number)[] | undefined): FilterPlan | undefined {
  if (!values || values.length === 0) return undefined;
  if (kind === 'set-int' || kind === 'task-state') {
    const numbers = values.map(Number);
    if (numbers.some((n) => !Number.isInteger(n))) throw badFilter(path, 'values must be whole numbers');
    return kind === 'task-state' ? { op: 'state', field, ...effectiveStateFilter(numbers) } : { op: 'set', field, values: numbers };
  }
  return { op: 'set', field, values: values.map(String) };
}

/** The condition of one filter, from the field's definition (never from the request's text). */
export function planFilter(filter: FilterCondition, index: number, fields: ReadonlyMap<string, LedgerField>): FilterPlan | undefined {
  const path = `filterList.${index}`;
  const field = fields.get(filter.id);
  if (!field) throw badFilter(`${path}.id`, `unknown ledger field: ${filter.id}`);
  if (filter.type !== undefined && filter.type !== field.type) throw badFilter(`${path}.type`, `field ${field.id} is of type ${field.type}`);
  const { gte: from, lte: to, in: values, searchWord: word } = filter.condition;
  const source = catalogueField(field.id);
  const given = (plan: { word?: string | undefined; values?: string[] | undefined }) => ({
    ...(plan.word ? { word: plan.word } : {}),
    ...(plan.values ? { values: plan.values } : {}),
  });
  if (!source) {
    const parts = given({ word, values: textValues(values) });
    return Object.keys(parts).length > 0 ? { op: 'form', field: field.id, ...parts } : undefined;
  }
  switch (source.kind) {
    case 'text': {
      const parts = given({ word, values: textValues(values) });
      return Object.keys(parts).length > 0 ? { op: 'text', field: field.id, ...parts } : undefined;
    }
    case 'number': {
      // The amount columns hold whole hundredths, a bound up to 8 decimals of a unit: the whole bounds that keep the same rows.
      const plan = range(path, field.id, 'number', numberBound(`${path}.condition.gte`, from), numberBound(`${path}.condition.lte`, to));
      if (plan?.op !== 'range') return plan;
      return { ...plan, ...(plan.from !== undefined && { from: Math.ceil(Number(plan.from)) }), ...(plan.to !== undefined && { to: Math.floor(Number(plan.to)) }) };
    }
    case 'date':
    case 'timestamp':
      return range(path, field.id, source.kind, dateBound(`${path}.condition.gte`, from), dateBound(`${path}.condition.lte`, to));
    case 'set-text':
    case 'set-int':
    case 'task-state':
      return setPlan(path, field.id, source.kind, values);
  }
}

/** The whole question: the scene's kept filter values and columns, the request's filters, keyword, order and page, on `today`. */
export function planSearch(search: LedgerSearch, definitions: readonly LedgerField[], scene: SearchScene | undefined, today: string): SearchPlan {
  const fields = new Map(definitions.map((field) => [field.id, field]));
  const titleIds = search.titleIDs ?? scene?.titleIDs ?? definitions.filter((f) => f.isDefaultTitle).map((f) => f.id);
  const unknownTitle = titleIds.find((id) => !fields.has(id));
  if (unknownTitle !== undefined) throw badFilter('titleIDs', `unknown ledger field: ${unknownTitle}`);
  const titles = [nameFieldId, ...titleIds.filter((id) => id !== nameFieldId)].map((id) => fields.get(id)!);
  const performanceId = search.performanceId !== undefined ? search.performanceId : (scene?.performanceId ?? null);
  // The scene's kept filter values are where its drawer starts: a request's condition on a field
  // (an empty one too) replaces the kept one on that field, so the user can widen or clear it.
  const asked = new Set(search.filterList.map((filter) => filter.id));
  const conditions = [...(scene?.filter ?? []).filter((filter) => !asked.has(filter.id)), ...search.filterList];
  const filters = conditions.flatMap((filter, i) => {
    const plan = planFilter(filter, i, fields);
    return plan ? [{ contractSide: fields.get(filter.id)?.category === 'contract', plan }] : [];
  });
  // The scene's kept sort unless the request asks its own (null: none, newest update first).
  const sortField = search.sortField !== undefined ? search.sortField : (scene?.sortField ?? null);
  let sort: SearchPlan['sort'] = null;
  if (sortField) {
    if (!catalogueField(sortField.id)) throw badFilter('sortField.id', `the ledger cannot sort by ${sortField.id}`);
    sort = { field: sortField.id, ascending: sortField.key === 1 };
  }
  return {
    titles,
    performanceId,
    q: search.q || undefined,
    filters,
    sort,
    unfiltered: !search.q && conditions.length === 0,
    offset: (search.pageNum - 1) * search.pageSize,
    limit: search.pageSize,
    today,
  };
}

/**
 * A selected row, read as a ledger record the same way by both answers. The row holds each catalogue
 * field under its id (a money field's currency under `id:unit`) and the record's own values under
 * `*Value` names; `formValues` is the contract's form values already parsed. `time` writes an
 * instant as the API's text (PostgreSQL hands Dates, SQLite the text itself).
 */
export interface SelectedRow {
  [column: string]: unknown;
  formValues: Record<string, unknown>;
}

/**
 * The reader of a page's selected rows as ledger records, for its columns: what each cell reads
 * is decided once per page, not per row, and the rows share one snapshot of the field definitions.
 */
export function ledgerRowReader(titles: readonly LedgerField[], people: ReadonlyMap<string, string>, time: (value: unknown) => string, today: string): (row: SelectedRow) => LedgerRow {
  const stateOf = (row: SelectedRow) => effectiveState(Number(row.taskStateValue) as TaskState, (row.expirationTime as string | null) ?? null, today);
  const cellOf = (field: LedgerField): ((row: SelectedRow) => unknown) => {
    const id = field.id;
    if (!catalogueField(id)) return (row) => row.formValues[id] ?? null;
    if (catalogueField(id)!.kind === 'task-state') return stateOf;
    const empty = field.type === 'people' ? () => [] : () => null;
    const present = (value: unknown, row: SelectedRow): unknown => {
      if (field.type === 'money') return { amount: Number(value), unit: String(row[`${id}:unit`] ?? '') };
      if (field.type === 'people') return [{ id: value, name: people.get(String(value)) ?? '' }];
      if (value instanceof Date) return time(value);
      return value;
    };
    return (row) => {
      const value = row[id];
      return value === null || value === undefined ? empty() : present(value, row);
    };
  };
  const cells = titles.map((field) => [field.id, cellOf(field)] as const);
  const fieldSnapShot = Object.fromEntries(titles.map((field) => [field.id, field]));
  return (row) => {
    const data: Record<string, unknown> = {};
    for (const [id, cell] of cells) data[id] = cell(row);
    const type = String(row.taskTypeValue);
    const due = (row.expirationTime as string | null) ?? null;
    const timeColumn = timeColumnOfTaskType[type];
    const timeOf = (column: string) => (timeColumn === column ? due : null);
    return {
      id: String(row.taskId),
      data,
      fieldSnapShot,
      contractID: String(row.contractIdValue),
      contractName: String(row.contractNameValue),
      performanceId: (row.performanceIdValue as string | null) ?? null,
      templateName: (row.templateNameValue as string | null) ?? null,
      contractTypeName: (row.contractTypeNameValue as string | null) ?? null,
      status: (row.contractStatusValue as LedgerRow['status']) ?? null,
      type,
      taskState: stateOf(row),
      receivableTime: timeOf('receivableTime'),
      payableTime: timeOf('payableTime'),
      invoiceTime: timeOf('invoiceTime'),
      expirationTime: due,
      recallTime: timeOf('recallTime'),
      performanceTime: due,
      updateTime: time(row.updateTimeValue),
      createTime: time(row.createTimeValue),
    };
  };
}
