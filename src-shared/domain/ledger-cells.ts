import { contractStatuses, TaskState } from './enums';
import { formatMoney } from './money';
import type { LedgerField } from './ledger';

// How a ledger cell and a select option read, shared by the scene table (renderer) and the Excel
// export (core): the server's row data (money in hundredths with its unit, people as {id, name}[],
// option ids) in the user's words. The words come from the i18n catalog by key.

export interface FieldOption {
  id: string | number;
  name: string;
}

export function optionsOf(field: LedgerField): FieldOption[] {
  const options = field.config.options;
  return Array.isArray(options) ? options.filter((o): o is FieldOption => typeof o === 'object' && o !== null && 'id' in o && 'name' in o) : [];
}

const taskStateKeys: Record<number, string> = {
  [TaskState.NotStarted]: 'notStarted', [TaskState.InProgress]: 'inProgress', [TaskState.Overdue]: 'overdue', [TaskState.Success]: 'success', [TaskState.Incomplete]: 'incomplete',
};

/** The catalog key of a system option's label (task types, task states, contract statuses); null for a form field's own option. */
export function optionLabelKey(field: Pick<LedgerField, 'id'>, option: FieldOption): string | null {
  if (field.id === 'taskType') return `scenes.taskTypes.${option.id}`;
  if (field.id === 'taskState') return `taskState.${taskStateKeys[Number(option.id)] ?? ''}`;
  if (field.id === 'contractStatus' && (contractStatuses as readonly number[]).includes(Number(option.id))) return `contractStatus.${option.id}`;
  return null;
}

/** The catalog key of a field's column title (a form field keeps its template's name: none). */
export const fieldLabelKey = (field: Pick<LedgerField, 'id'>) => `scenes.fields.${field.id}`;

/** A cell as text; `label` names a select option (see optionLabelKey). */
export function cellText(label: (field: LedgerField, option: FieldOption) => string, field: LedgerField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '--';
  if (field.type === 'money' && typeof value === 'object' && 'amount' in value) return formatMoney(value as { amount: number; unit: string });
  if (Array.isArray(value)) {
    const parts = value.map((item) => (typeof item === 'object' && item !== null && 'name' in item ? String((item as { name: unknown }).name) : String(item)));
    return parts.length > 0 ? parts.join(', ') : '--';
  }
  const option = optionsOf(field).find((o) => String(o.id) === String(value));
  if (option) return label(field, option);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
