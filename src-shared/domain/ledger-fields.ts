import { contractStatuses, TaskState } from './enums';
import { nameFieldId, type LedgerField, type LedgerFieldType } from './ledger';
import { performanceTaskTypes } from './performance';

// The ledger's system columns (spec 3 "Ledger"): which entity column each id reads and how it
// filters. The server maps each id to its PostgreSQL column (src-server/ledger/fields.ts) and the
// replica to its SQLite one (src-main/core/ledger/scene-search.ts), so both answer a scene alike.
// An id outside this catalogue is a contract form field registered in ledger_fields.

/**
 * How a field filters: a contains search, a numeric or date range, a set of values, or a set of
 * task states (matched, sorted and shown as each task's effective state: src-shared/rules/performance.ts).
 */
export type FilterKind = 'text' | 'number' | 'date' | 'timestamp' | 'set-text' | 'set-int' | 'task-state';

export interface CatalogueField extends LedgerField {
  kind: FilterKind;
  /** A money field: shown with the currency of its row. */
  hasUnit: boolean;
}

const options = (values: readonly (string | number)[]) => ({ options: values.map((id) => ({ id, name: String(id) })) });

const entry = (
  id: string, name: string, category: LedgerField['category'], type: LedgerFieldType, kind: FilterKind,
  defaults: { filter?: boolean; title?: boolean; config?: Record<string, unknown> } = {},
): CatalogueField => ({
  id, name, category, type, kind, hasUnit: type === 'money', config: defaults.config ?? {},
  isDefaultFilter: defaults.filter ?? false, isDefaultTitle: defaults.title ?? false,
});

export const ledgerFieldCatalogue: readonly CatalogueField[] = [
  entry(nameFieldId, 'performance name', 'system', 'others', 'text', { filter: true, title: true }),
  entry('taskType', 'task type', 'system', 'select', 'set-text', { filter: true, title: true, config: options(performanceTaskTypes) }),
  entry('taskState', 'task state', 'system', 'select', 'task-state', { filter: true, title: true, config: options(Object.values(TaskState)) }),
  entry('expirationTime', 'expiration time', 'system', 'date', 'date', { filter: true, title: true }),
  entry('receivableAmount', 'receivable amount', 'system', 'money', 'number', { filter: true, title: true }),
  entry('payableAmount', 'payable amount', 'system', 'money', 'number', { title: true }),
  entry('finishedAmount', 'finished amount', 'system', 'money', 'number'),
  entry('taskLeader', 'task leader', 'system', 'people', 'set-text', { filter: true, title: true }),
  entry('createTime', 'create time', 'system', 'date', 'timestamp'),
  entry('updateTime', 'update time', 'system', 'date', 'timestamp', { title: true }),
  entry('contractName', 'contract name', 'contract', 'others', 'text', { filter: true, title: true }),
  entry('contractNumber', 'contract number', 'contract', 'others', 'text', { title: true }),
  entry('contractStatus', 'contract status', 'contract', 'select', 'set-int', { filter: true, title: true, config: options(contractStatuses) }),
  entry('contractTypeName', 'contract type', 'contract', 'others', 'text'),
  entry('templateName', 'template name', 'contract', 'others', 'text'),
  entry('contractAmount', 'contract amount', 'contract', 'money', 'number', { filter: true }),
  entry('responsiblePerson', 'responsible person', 'contract', 'people', 'set-text', { filter: true, title: true }),
  entry('signDate', 'sign date', 'contract', 'date', 'date'),
];

const catalogueById = new Map(ledgerFieldCatalogue.map((field) => [field.id, field]));

/** The system field of `id`; undefined for a contract form field. */
export function catalogueField(id: string): CatalogueField | undefined {
  return catalogueById.get(id);
}

/** A search word matches the record's name or its contract's name or number (performances/search's `q`). */
export const keywordFieldIds = [nameFieldId, 'contractName', 'contractNumber'] as const;

/** The task type decides which of the ledger's time columns its due date is (spec 3, "Ledger row"). */
export const timeColumnOfTaskType: Record<string, 'receivableTime' | 'payableTime' | 'invoiceTime' | 'recallTime'> = {
  receivable: 'receivableTime', collection: 'receivableTime', payable: 'payableTime', payment: 'payableTime', invoicing: 'invoiceTime', recall: 'recallTime',
};
