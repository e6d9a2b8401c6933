import { contractStatuses, TaskState } from './enums';
import { formatMoney } from './money';
import type { LedgerField } from './ledger';
import { catalogueField } from './ledger-fields';

// How a ledger cell and a select option read, shared by the scene table (renderer) and the Excel
// export (core): the server's row data (money in hundredths with its unit, people as {id, name}[],
// option ids, days and instants) in the user's words. The words come from the i18n catalog by key.

export interface FieldOption {
  id: string | number;
  name: string;
}

/** A system field's options are the catalogue's (a server's kept copy may predate a type); a form field's its own. */
export function optionsOf(field: LedgerField): FieldOption[] {
  const options = (catalogueField(field.id)?.config ?? field.config).options;
  return Array.isArray(options) ? options.filter((o): o is FieldOption => typeof o === 'object' && o !== null && 'id' in o && 'name' in o) : [];
}

/**
 * Each task state's key in the `taskState` catalog: one name per state wherever a state is shown
 * (ledger, contract tab, dashboard, sync panel). The finished state (4, 'success' in the API) reads
 * 'completed' (已完成), as the contract's tab and the dashboard's 'completed' count say.
 */
export const taskStateKeys = {
  [TaskState.NotStarted]: 'notStarted',
  [TaskState.InProgress]: 'inProgress',
  [TaskState.Overdue]: 'overdue',
  [TaskState.Success]: 'completed',
  [TaskState.Incomplete]: 'incomplete',
} as const satisfies Record<TaskState, string>;

/** The catalog key of a system option's label (task types, task states, contract statuses); null for a form field's own option. */
export function optionLabelKey(field: Pick<LedgerField, 'id'>, option: FieldOption): string | null {
  if (field.id === 'taskType') return `scenes.taskTypes.${option.id}`;
  if (field.id === 'taskState') {
    const key = (taskStateKeys as Record<number, string>)[Number(option.id)];
    return key ? `taskState.${key}` : null;
  }
  if (field.id === 'contractStatus' && (contractStatuses as readonly number[]).includes(Number(option.id))) return `contractStatus.${option.id}`;
  return null;
}

/** The catalog key of a field's column title (a form field keeps its template's name: none). */
export const fieldLabelKey = (field: Pick<LedgerField, 'id'>) => `scenes.fields.${field.id}`;

/** The words a cell is written in: an option's label (see optionLabelKey), a day (yyyy-MM-dd) and an instant (ISO). */
export interface CellWords {
  option(field: LedgerField, option: FieldOption): string;
  day(value: string): string;
  instant(value: string): string;
}

/** Whether a date cell holds an instant (create and update times) rather than a day. */
const isInstant = (field: LedgerField) => catalogueField(field.id)?.kind === 'timestamp';

/** A cell as text. */
export function cellText(words: CellWords, field: LedgerField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '--';
  if (field.type === 'money' && typeof value === 'object' && 'amount' in value) return formatMoney(value as { amount: number; unit: string });
  if (Array.isArray(value)) {
    const parts = value.map((item) => (typeof item === 'object' && item !== null && 'name' in item ? String((item as { name: unknown }).name) : String(item)));
    return parts.some((part) => part !== '') ? parts.join(', ') : '--';
  }
  if (field.type === 'date' && typeof value === 'string') return (isInstant(field) ? words.instant(value) : words.day(value)) || value;
  const option = optionsOf(field).find((o) => String(o.id) === String(value));
  if (option) return words.option(field, option);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
