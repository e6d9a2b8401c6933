import type { TFunction } from 'i18next';
import { contractStatuses, TaskState } from '../../../src-shared/domain/enums';
import { formatMoney } from '../../../src-shared/domain/money';
import type { LedgerField } from '../../../src-shared/domain/ledger';

// How a ledger cell and a select option read: the server's row data (money in hundredths with its
// unit, people as {id, name}[], option ids) in the user's words.

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

export function optionLabel(t: TFunction, field: Pick<LedgerField, 'id'>, option: FieldOption): string {
  if (field.id === 'taskType') return t(`scenes.taskTypes.${option.id}`, { defaultValue: option.name });
  if (field.id === 'taskState') return t(`taskState.${taskStateKeys[Number(option.id)] ?? ''}`, { defaultValue: option.name });
  if (field.id === 'contractStatus' && (contractStatuses as readonly number[]).includes(Number(option.id))) return t(`contractStatus.${option.id}`, { defaultValue: option.name });
  return option.name;
}

export function cellText(t: TFunction, field: LedgerField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '--';
  if (field.type === 'money' && typeof value === 'object' && 'amount' in value) return formatMoney(value as { amount: number; unit: string });
  if (Array.isArray(value)) {
    const parts = value.map((item) => (typeof item === 'object' && item !== null && 'name' in item ? String((item as { name: unknown }).name) : String(item)));
    return parts.length > 0 ? parts.join(', ') : '--';
  }
  const option = optionsOf(field).find((o) => String(o.id) === String(value));
  if (option) return optionLabel(t, field, option);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
