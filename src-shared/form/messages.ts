// Every message the form engine produces, keyed so the renderer translates by key (the i18n
// catalogs' `form` section has exactly these keys). The English text is the spec's wording in
// sentence case (UI.md); entries marked "defined here" have no spec wording. `{{name}}`
// placeholders follow i18next.

export const formMessages = {
  validationFailed: 'Validation failed',
  relatedContractsMin: 'Related contracts must contain at least two items',
  relatedContractInvalid: 'Each related contract needs a contract name and a relationship', // defined here
  enterNumber: 'Please enter the number',
  formatNotSupported: 'The current file format is not supported',
  fileTooLarge: 'The uploaded file exceeds the maximum size. Please upload it again.',
  wrongFileFormat: 'Wrong file format. Please upload it again.',
  oneFileAtATime: 'Only one file can be uploaded at a time', // defined here
  uploadFailed: 'Upload failed',
  reupload: 'Upload again',
  maxParties: 'At most 10 parties can be added',
  selectExternalPartyFirst: 'Please select an external party first',
  noData: 'No data',
  minGreaterThanMax: 'The minimum cannot be greater than the maximum',
  pleaseEnter: 'Please enter {{name}}',
  pleaseSelect: 'Please select {{name}}',
  pleaseFillIn: 'Please fill in {{name}}',
  enterPaymentAmount: 'Please enter the payment amount',
  conditionTimeRequired: 'Please enter the condition time',
  dateTimeRequired: 'Please enter the date and time',
  valueRangeInvalid: 'The value range is invalid',
  textTooLong: 'At most {{max}} characters', // defined here
  bankAccountLength: 'Please enter 9 to 24 characters',
  bankAccountCharacters: 'Only letters, digits, hyphens, dashes and underscores are allowed', // defined here
  invalidNumber: 'Please enter a valid number', // defined here
  invalidDate: 'Invalid date', // defined here
  invalidDateRange: 'The start date cannot be after the end date', // defined here
  unknownFieldType: 'Unknown field type {{type}}', // defined here
  calculationCycle: 'Calculated fields depend on each other in a cycle: {{fields}}', // defined here
  divisionByZero: 'Division by zero while calculating {{name}}', // defined here
  calculationOperandMissing: 'The calculation of {{name}} refers to a missing field {{field}}', // defined here
  doNotShowClause: 'Do not show this clause',
  duplicateTitleNoData: 'No duplicates found yet',
  duplicateTitleAll: 'View all duplicate numbers',
  duplicateTitleSingle: 'This number duplicates the following contract numbers',
  duplicateTitleSingleTemplate: 'This number duplicates the following template numbers', // defined here
  iKnow: 'Got it',
  view: 'View',
  edit: 'Edit', // defined here
  delete: 'Delete', // defined here
  cancel: 'Cancel', // defined here
  addRow: '+ Add a row',
  close: 'Close', // defined here
  fieldDetails: 'Field details', // defined here
  fullScreen: 'Full screen', // defined here
  cooperationInformation: 'Cooperation information',
  partyDetail: 'Basic information', // defined here
} as const;

export type FormMessageKey = keyof typeof formMessages;

/** A message as a value: its key, its parameters and the English text (for logs and tests). */
export interface FormMessage {
  key: FormMessageKey;
  params?: Record<string, string>;
  text: string;
}

/** Builds a message value, filling `{{name}}` placeholders in the English text. */
export function formMessage(key: FormMessageKey, params?: Record<string, string>): FormMessage {
  const text = formMessages[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => params?.[name] ?? '');
  return params ? { key, params, text } : { key, text };
}

/** A problem found in one field of the form; `field` is the field's key. */
export interface FormIssue {
  field: string;
  message: FormMessage;
}

/** Results of the pure rules: a value, or the message explaining why there is none. */
export type RuleResult<T> = { ok: true; value: T } | { ok: false; message: FormMessage };

export const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
export const fail = <T = never>(key: FormMessageKey, params?: Record<string, string>): RuleResult<T> => ({
  ok: false,
  message: formMessage(key, params),
});
