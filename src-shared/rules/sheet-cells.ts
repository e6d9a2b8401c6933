import Decimal from 'decimal.js';
import { z } from 'zod';
import { ScheduleConditionType } from '../domain/enums';
import type { PlanSave, SheetColumn } from '../domain/performance';
import { isoDateSchema } from '../domain/dates';
import { AppFailure, reason } from '../errors';
import { scheduleCycles } from './schedule';
import { meetsValueRange } from './value-range';

// The cells of a performance sheet (spec 3 "Performance sheet", spec 5 "Performance sheet and task
// forms", spec 9): what each column type holds and when a cell is refused. One copy for the sheet
// editor (which shows the problem under the cell), the desktop core (which refuses the save at
// once) and the server (which refuses the same save by REST or sync).

/** Single- and multi-line text hold at most this many characters (spec 5, spec 9). */
export const sheetTextMaxLength = 1000;
/** A party column holds at most this many parties (spec 9). */
export const sheetPartiesMax = 10;

/** Why a cell is refused; each has the spec's message in the catalogs. */
export const cellProblems = ['enter', 'select', 'paymentAmount', 'valueRange', 'conditionTime', 'dateTime', 'tooLong', 'invalid'] as const;
export type CellProblem = (typeof cellProblems)[number];

/**
 * A performance time (spec 3, spec 4 "Condition types"): with no condition, a date; single or
 * multiple, one or more times, each a number of days after a reference node; periodic, every
 * cycle from a number of days after a reference node.
 */
export const performanceTimeSchema = z.discriminatedUnion('conditionType', [
  z.object({ conditionType: z.literal(ScheduleConditionType.None), date: isoDateSchema.nullable() }).strict(),
  z.object({ conditionType: z.literal(ScheduleConditionType.SingleOrMultiple), nodeId: z.string().max(64).nullable(), days: z.array(z.number().int().min(0).max(36_500)).max(20) }).strict(),
  z
    .object({
      conditionType: z.literal(ScheduleConditionType.Periodicity),
      nodeId: z.string().max(64).nullable(),
      days: z.array(z.number().int().min(0).max(36_500)).max(1),
      cycle: z.enum(scheduleCycles).nullable(),
    })
    .strict(),
]);
export type PerformanceTime = z.infer<typeof performanceTimeSchema>;

/** The nodes a performance time may refer to when the column names none (the contract's own dates). */
export const defaultReferenceNodes = [
  { id: 'signDate', name: 'contract signing date' },
  { id: 'effectiveDate', name: 'contract effective date' },
  { id: 'expiryDate', name: 'contract expiry date' },
] as const;

export function referenceNodesOf(column: Pick<SheetColumn, 'config'>): readonly { id: string; name: string }[] {
  const nodes = column.config?.referenceNodes;
  return nodes && nodes.length > 0 ? nodes : defaultReferenceNodes;
}

const personSchema = z.object({ id: z.string().max(64).optional(), name: z.string().min(1).max(200) });
const partySchema = z.object({ id: z.union([z.number().int(), z.string().min(1).max(64)]), name: z.string().max(500) }).passthrough();
/** A decimal number as typed: at most 15 characters and 8 decimals (spec 5 "Number range"). */
const numberTextSchema = z.union([z.string().max(15).regex(/^-?\d+(\.\d{1,8})?$/), z.number().finite()]);
const moneyCellSchema = z.object({ amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), unit: z.string().min(1).max(16) }).strict();

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** A choice is made from a list: what the required message asks for. */
const asksSelection = (type: SheetColumn['type']) => ['people', 'select', 'multiselect', 'outerParty', 'innerParty', 'performanceTime'].includes(type);

function performanceTimeProblem(column: SheetColumn, value: unknown): CellProblem | null {
  const parsed = performanceTimeSchema.safeParse(value);
  if (!parsed.success) return 'invalid';
  const time = parsed.data;
  if (time.conditionType === ScheduleConditionType.None) return time.date === null ? 'dateTime' : null;
  if (time.nodeId !== null && !referenceNodesOf(column).some((node) => node.id === time.nodeId)) return 'invalid';
  if (time.nodeId === null || time.days.length === 0) return 'conditionTime';
  return time.conditionType === ScheduleConditionType.Periodicity && time.cycle === null ? 'conditionTime' : null;
}

/** Whether a performance time says nothing yet (a condition type chosen, no time): empty for the required rule. */
function performanceTimeBlank(value: unknown): boolean {
  const parsed = performanceTimeSchema.safeParse(value);
  if (!parsed.success) return false;
  const time = parsed.data;
  return time.conditionType === ScheduleConditionType.None ? time.date === null : time.nodeId === null && time.days.length === 0;
}

function filledProblem(column: SheetColumn, value: unknown): CellProblem | null {
  const options = new Set((column.config?.options ?? []).map((o) => o.id));
  switch (column.type) {
    case 'text':
    case 'textarea':
      if (typeof value !== 'string') return 'invalid';
      return value.length > sheetTextMaxLength ? 'tooLong' : null;
    case 'date':
      return isoDateSchema.safeParse(value).success ? null : 'invalid';
    case 'number': {
      if (!numberTextSchema.safeParse(value).success) return 'invalid';
      const rule = column.config?.valueRange;
      return rule && !meetsValueRange(new Decimal(String(value).trim()), rule) ? 'valueRange' : null;
    }
    case 'money': {
      const money = moneyCellSchema.safeParse(value);
      if (!money.success) return 'invalid';
      // An amount of 0 is no payment (spec 5): it asks for the amount as an empty one does.
      if (money.data.amount === 0) return 'paymentAmount';
      const rule = column.config?.valueRange;
      return rule && !meetsValueRange(new Decimal(money.data.amount).dividedBy(100), rule) ? 'valueRange' : null;
    }
    case 'people': {
      const people = z.union([personSchema, z.array(personSchema).max(100)]).safeParse(value);
      if (!people.success) return 'invalid';
      return column.config?.singleSelect && Array.isArray(people.data) && people.data.length > 1 ? 'invalid' : null;
    }
    case 'select':
      return typeof value === 'string' && options.has(value) ? null : 'invalid';
    case 'multiselect':
      return Array.isArray(value) && value.every((id) => typeof id === 'string' && options.has(id)) && new Set(value).size === value.length ? null : 'invalid';
    case 'performanceTime':
      return performanceTimeProblem(column, value);
    case 'outerParty':
    case 'innerParty':
      return z.array(partySchema).max(sheetPartiesMax).safeParse(value).success ? null : 'invalid';
  }
}

/** Why a cell of the column cannot hold the value; null when it can. A required column's empty cell cannot. */
export function cellProblem(column: SheetColumn, value: unknown): CellProblem | null {
  const blank = isBlank(value) || (column.type === 'performanceTime' && performanceTimeBlank(value));
  if (blank) {
    if (!column.isRequired) return null;
    if (column.type === 'money') return 'paymentAmount';
    return asksSelection(column.type) ? 'select' : 'enter';
  }
  return filledProblem(column, value);
}

type PlanRow = PlanSave['rows'][number];

/** The columns whose cells are fields of the task rather than entries of its values. */
const taskFieldOf: Record<string, (row: PlanRow) => unknown> = {
  name: (row) => row.name,
  expirationTime: (row) => row.expirationTime,
  receivableAmount: (row) => row.receivableAmount,
  payableAmount: (row) => row.payableAmount,
};

/**
 * The cell of a row under a column as a plan save sends it; undefined when the save leaves it as
 * it is. The task leader is a person id in the save: it is checked as a person.
 */
export function rowCell(row: PlanRow, column: SheetColumn): unknown {
  const field = taskFieldOf[column.id];
  if (field) return field(row);
  if (column.id === 'leader') return row.leaderUserID === undefined ? undefined : row.leaderUserID === null ? null : { id: row.leaderUserID, name: row.leaderUserID };
  return row.values?.[column.id];
}

export interface CellIssue {
  /** 1-based, as the user counts the sheet's rows. */
  row: number;
  column: SheetColumn;
  problem: CellProblem;
}

/**
 * The problems of the rows a plan save lists: every cell of a new row and the cells a saved row
 * changes. The state column is the task's, not typed in. A required column's cell is asked of
 * every new row and may not be emptied on a saved one, by the sheet editor, the core and the
 * server alike: the rule is on writes, rows stored before it are read as they are. A save's rows
 * with an id are saved rows, unless `allNew` (a new plan's rows carry the ids their device made).
 */
export function sheetCellIssues(columns: readonly SheetColumn[], rows: readonly PlanRow[], allNew = false): CellIssue[] {
  const typed = columns.filter((column) => !column.isState);
  return rows.flatMap((row, i) =>
    typed.flatMap((column): CellIssue[] => {
      const value = rowCell(row, column);
      // A saved row keeps what it does not send; a new row without a leader is its author's; a
      // column that follows a contract field takes the contract's value, whatever the row sends.
      if (value === undefined && ((row.id !== undefined && !allNew) || column.id === 'leader' || column.config?.relatedFieldId)) return [];
      const problem = cellProblem(column, value);
      return problem ? [{ row: i + 1, column, problem }] : [];
    }),
  );
}

/** The words of a refusal's problem: a required cell left empty asks for it by the column's name (spec 5). */
const problemWords = (problem: CellProblem, column: string) =>
  problem === 'enter' || problem === 'paymentAmount' ? `please enter ${column}` : problem === 'select' ? `please select ${column}` : `the cell of "${column}" is not valid (${problem})`;

/** The save's first problem as the refusal the server and the core give: its row, column and why. */
export function sheetCellRefusal(columns: readonly SheetColumn[], rows: readonly PlanRow[], allNew = false): AppFailure | null {
  const [first] = sheetCellIssues(columns, rows, allNew);
  if (!first) return null;
  const { row, column, problem } = first;
  return new AppFailure(
    'validation_failed',
    `rows.${row - 1}.${column.id}: ${problemWords(problem, column.name)}`,
    undefined,
    reason('sheetCellInvalid', { row, column: column.name, problem }),
  );
}

// ----- Extraction and relate-field (spec 5) -----

/**
 * The cell a column takes from the contract's form values: the field's value when the column
 * could hold it, otherwise none (null). Extraction fills cells with it once; a related column's
 * cells are it, whenever the contract changes.
 */
export function cellFromContract(column: SheetColumn, fieldId: string, formValues: Readonly<Record<string, unknown>>): unknown {
  const value = formValues[fieldId];
  if (value === undefined || value === null) return null;
  return filledProblem(column, value) === null ? value : null;
}

/** The related columns' cells of a row as the contract's values give them. */
export function relatedCells(columns: readonly SheetColumn[], formValues: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(columns.flatMap((column) => (column.config?.relatedFieldId ? [[column.id, cellFromContract(column, column.config.relatedFieldId, formValues)]] : [])));
}
