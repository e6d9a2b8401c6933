// Every message the form engine produces, keyed so the renderer translates by key (the i18n
// catalogs' `form` section has exactly these keys). The English text is the spec's wording;
// entries marked "defined here" have no spec wording. `{{name}}` placeholders follow i18next.

export const formMessages = {
  validationFailed: 'validation failed',
  relatedContractsMin: 'related contracts must contain at least two items',
  relatedContractInvalid: 'each related contract needs a contract name and a relationship', // defined here
  enterNumber: 'please enter the number',
  formatNotSupported: 'the current file format is not supported',
  fileTooLarge: 'uploaded file exceeds the maximum limit, please upload again!',
  wrongFileFormat: 'wrong file format! please upload again',
  oneFileAtATime: 'only one file can be uploaded at a time', // defined here
  uploadFailed: 'upload failed',
  reupload: 're-upload',
  maxParties: 'at most 10 parties can be added',
  selectExternalPartyFirst: 'please select an external party first',
  noData: 'no data',
  minGreaterThanMax: 'minimum cannot be greater than maximum',
  pleaseEnter: 'please enter {{name}}',
  pleaseSelect: 'please select {{name}}',
  pleaseFillIn: 'please fill in {{name}}',
  enterPaymentAmount: 'please enter payment amount',
  conditionTimeRequired: 'please enter condition time',
  dateTimeRequired: 'please enter date time',
  valueRangeInvalid: 'value range invalid',
  textTooLong: 'at most {{max}} characters', // defined here
  bankAccountLength: 'please enter 9-24 characters',
  bankAccountCharacters: 'only letters, digits, hyphens, dashes and underscores are allowed', // defined here
  invalidNumber: 'please enter a valid number', // defined here
  invalidDate: 'invalid date', // defined here
  invalidDateRange: 'the start date cannot be after the end date', // defined here
  unknownFieldType: 'unknown field type {{type}}', // defined here
  calculationCycle: 'calculated fields depend on each other in a cycle: {{fields}}', // defined here
  divisionByZero: 'division by zero while calculating {{name}}', // defined here
  calculationOperandMissing: 'the calculation of {{name}} refers to a missing field {{field}}', // defined here
  doNotShowClause: 'do not show this clause',
  duplicateTitleNoData: 'no duplicates found yet',
  duplicateTitleAll: 'view all duplicate numbers',
  duplicateTitleSingle: 'this number duplicates the following contract numbers',
  iKnow: 'I know',
  view: 'view',
  edit: 'edit', // defined here
  delete: 'delete', // defined here
  cancel: 'cancel', // defined here
  addRow: '+增加一行',
  close: 'close', // defined here
  fieldDetails: 'field details', // defined here
  fullScreen: 'full screen', // defined here
  cooperationInformation: 'cooperation information',
  partyDetail: 'basic information', // defined here
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
