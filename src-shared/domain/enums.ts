// The spec's enums (point 3 and 4), with the numeric values the spec gives. Labels live in the
// i18n catalogs under the keys returned by the *LabelKey helpers, never here.

/** Contract status (spec 4, "Contract statuses"). */
export const ContractStatus = {
  Drafting: 1,
  UnderApproval: 2,
  ApprovalRejected: 3,
  Approved: 4,
  Archived: 5,
} as const;
export type ContractStatus = (typeof ContractStatus)[keyof typeof ContractStatus];
export const contractStatuses: readonly ContractStatus[] = [1, 2, 3, 4, 5];

/** The key of each status in the contract statistics (spec 3, "Contract statistics"). */
export const contractStatusStatisticsKey = {
  1: 'draft',
  2: 'underApproval',
  3: 'approvalRejected',
  4: 'approved',
  5: 'archived',
} as const satisfies Record<ContractStatus, string>;

/** Performance task state. The value 4 is the finished state, called success (spec 4). */
export const TaskState = {
  NotStarted: 1,
  InProgress: 2,
  Overdue: 3,
  Success: 4,
  Incomplete: 5,
} as const;
export type TaskState = (typeof TaskState)[keyof typeof TaskState];

/** Performance task types (spec 4). */
export const taskTypes = ['receivable', 'collection', 'payable', 'payment', 'invoicing', 'expiration', 'recall'] as const;
export type TaskType = (typeof taskTypes)[number];

/** Reminder settings are kept per task kind (spec 3, "Reminder settings"). */
export const reminderTaskKinds = ['receivableTask', 'paymentTask', 'invoiceTask', 'expirationTask', 'othersTask'] as const;
export type ReminderTaskKind = (typeof reminderTaskKinds)[number];

/** Condition types of a performance schedule (spec 4). */
export const ScheduleConditionType = { None: 0, SingleOrMultiple: 1, Periodicity: 2 } as const;
export type ScheduleConditionType = (typeof ScheduleConditionType)[keyof typeof ScheduleConditionType];

/** Credit rating (spec 4). */
export const CreditRating = { None: 0, HighQuality: 10, Good: 20, Average: 30, Blacklist: 40 } as const;
export type CreditRating = (typeof CreditRating)[keyof typeof CreditRating];

/** Party type: 1 inner counterpart, 2 outer counterpart (spec 3). */
export const PartyType = { Inner: 1, Outer: 2 } as const;
export type PartyType = (typeof PartyType)[keyof typeof PartyType];

/** Party subtype: 1 organisation, 2 natural person (spec 3). */
export const PartySubtype = { Organization: 1, NaturalPerson: 2 } as const;
export type PartySubtype = (typeof PartySubtype)[keyof typeof PartySubtype];

/** Numbering reset cycle (spec 4); when the cycle is never, recount is true. */
export const ResetCycle = { Never: 0, Day: 1, Week: 2, Month: 3, Year: 4 } as const;
export type ResetCycle = (typeof ResetCycle)[keyof typeof ResetCycle];

/** Numbering rule scope (spec 4). */
export const RuleScope = { Default: 0, ContractType: 1, InitiatorMainDepartment: 2, InitiatorDepartmentTree: 3 } as const;
export type RuleScope = (typeof RuleScope)[keyof typeof RuleScope];

/** Date format option for the abbreviation or number preview (spec 4). */
export const NumberDateFormat = { YearMonthDay: 0, YearMonth: 1, MonthDay: 2, Year: 3 } as const;
export type NumberDateFormat = (typeof NumberDateFormat)[keyof typeof NumberDateFormat];

/** Duplicate-number dialog type (spec 3). */
export const DuplicateDialogType = { NoData: 'NoData', All: 'All', Single: 'Single' } as const;
export type DuplicateDialogType = (typeof DuplicateDialogType)[keyof typeof DuplicateDialogType];

/** Transfer handling method (spec 6). */
export const TransferHandleMethod = { AsBusinessHandler: 1, KeepAgentIdentity: 2 } as const;
export type TransferHandleMethod = (typeof TransferHandleMethod)[keyof typeof TransferHandleMethod];

/** Form modes (spec 2, "Generic form"). */
export const formModes = ['preview', 'edit', 'disabled'] as const;
export type FormMode = (typeof formModes)[number];

/** Field types of the generic form (spec 3). */
export const fieldTypes = [
  'text', 'textarea', 'number', 'money', 'date', 'daterange', 'date-time', 'bool', 'select', 'multiselect',
  'cascader', 'radio', 'checkbox', 'upload', 'people', 'department', 'contractType', 'templateName',
  'contractNumber', 'serialNumber', 'inputSelect', 'inputSelectV2', 'clause', 'sheetTable', 'relationProject',
  'caseType', 'agentInformation', 'relatedContracts', 'bankAccount', 'offlineArchiveAddress', 'customAttachment',
  'image-preview', 'custom',
] as const;
export type FieldType = (typeof fieldTypes)[number];

/** Calculation operators (spec 9). */
export const CalculationOperator = {
  Add: 1, Subtract: 2, Multiply: 3, Divide: 4, AddInBrackets: 5, SubtractInBrackets: 6,
} as const;
export type CalculationOperator = (typeof CalculationOperator)[keyof typeof CalculationOperator];

/** Ledger page sizes (spec 9): default 20. */
export const ledgerPageSizes = [5, 10, 20, 50] as const;
export type LedgerPageSize = (typeof ledgerPageSizes)[number];
export const defaultLedgerPageSize: LedgerPageSize = 20;
