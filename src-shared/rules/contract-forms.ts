import Decimal from 'decimal.js';
import type { Clause, ClauseStatement, FieldConfig } from '../domain/contract-forms';
import type { FieldIssue } from '../errors';
import { numberMaxDecimals, numberMaxLength } from '../form/number-range';

// The generic form's value rules (spec 5), shared by the renderer and the server, which applies
// them again to every contract it stores.

/** \ / : * ? " < > | and the full-width colon and question mark (spec 5). */
const contractNameForbidden = /[\\/:*?"<>|：？]/g;

/** Contract names drop the forbidden characters, as the form does while typing. */
export function stripContractName(name: string): string {
  return name.replace(contractNameForbidden, '').trim();
}

/** Fields whose type or name marks them as the contract name. */
export function isContractNameField(field: Pick<FieldConfig, 'name'>): boolean {
  return field.name === 'contract name' || field.name === '合同名称';
}

export const maxPartiesPerField = 10;
export const defaultTextMaxLength = 1000;
const bankAccountPattern = /^[A-Za-z0-9_-]{9,24}$/;

export const formMessages = {
  tooManyParties: 'at most 10 parties can be added',
  relatedTooFew: 'related contracts must contain at least two items',
  relatedRowInvalid: 'each related contract needs a contract name and a relationship',
  bankAccount: 'please enter 9-24 characters',
  tooLong: (max: number) => `at most ${max} characters`,
  required: (field: Pick<FieldConfig, 'name' | 'type'>) => `${field.type === 'upload' ? 'please select' : 'please enter'} ${field.name}`,
  wrongShape: (expected: string) => `must be ${expected}`,
  rangeOrder: 'minimum cannot be greater than maximum',
} as const;

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  // A number range with neither side typed.
  if (isRecord(value) && Object.keys(value).every((key) => key === 'min' || key === 'max')) return isEmpty(value.min) && isEmpty(value.max);
  return false;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A party value (spec 3): id, name, … The new blank party has id 0. */
function partyIssues(value: unknown): string | undefined {
  if (!Array.isArray(value)) return formMessages.wrongShape('a list of parties');
  if (value.length > maxPartiesPerField) return formMessages.tooManyParties;
  if (!value.every((party) => isRecord(party) && typeof party.name === 'string' && party.name.trim() !== '')) {
    return formMessages.wrongShape('parties with a name');
  }
  return undefined;
}

/** Related contracts (spec 3): groups of relationType with relatedContracts (contractName, relationshipID). */
function relatedIssues(value: unknown): string | undefined {
  if (!Array.isArray(value)) return formMessages.wrongShape('a list of relation groups');
  for (const group of value) {
    if (!isRecord(group) || !Array.isArray(group.relatedContracts)) return formMessages.wrongShape('relation groups with relatedContracts');
    if (group.relatedContracts.length < 2) return formMessages.relatedTooFew;
    const rowValid = (row: unknown) =>
      isRecord(row) && typeof row.contractName === 'string' && row.contractName.trim() !== '' && row.relationshipID !== 0 && row.relationshipID !== undefined;
    if (!group.relatedContracts.every(rowValid)) return formMessages.relatedRowInvalid;
  }
  return undefined;
}

function moneyIssues(value: unknown): string | undefined {
  const valid = isRecord(value) && Number.isSafeInteger(value.amount) && typeof value.unit === 'string' && value.unit !== '';
  return valid ? undefined : formMessages.wrongShape('an amount in hundredths with a unit');
}

/** At most 8 decimals and 15 characters, as the number input keeps them (spec 5, spec 9). */
const decimalText = new RegExp(`^-?\\d+(\\.\\d{1,${numberMaxDecimals}})?$`);
const isDecimalText = (value: unknown): value is string => typeof value === 'string' && value.length <= numberMaxLength && decimalText.test(value);

/**
 * A number as the form keeps it: decimal text (exact beyond a double's digits), a JSON number,
 * or a number range {min, max} whose sides are decimal text or empty, the minimum not above the maximum.
 */
function numberIssues(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : formMessages.wrongShape('a number');
  if (isDecimalText(value)) return undefined;
  if (!isRecord(value)) return formMessages.wrongShape('a number');
  const { min = '', max = '' } = value;
  const side = (v: unknown) => v === '' || isDecimalText(v);
  if (Object.keys(value).some((key) => key !== 'min' && key !== 'max') || !side(min) || !side(max)) return formMessages.wrongShape('a number range');
  return min !== '' && max !== '' && new Decimal(min as string).greaterThan(max as string) ? formMessages.rangeOrder : undefined;
}

function textIssues(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return formMessages.wrongShape('text');
  return value.length > max ? formMessages.tooLong(max) : undefined;
}

/** The problem with one non-empty value of a field, if any. */
function valueIssue(field: FieldConfig, value: unknown): string | undefined {
  switch (field.type) {
    case 'inputSelect':
    case 'inputSelectV2':
      return partyIssues(value);
    case 'relatedContracts':
      return relatedIssues(value);
    case 'bankAccount':
      return typeof value === 'string' && bankAccountPattern.test(value) ? undefined : formMessages.bankAccount;
    case 'money':
      return moneyIssues(value);
    case 'text':
    case 'textarea':
      return textIssues(value, field.maxlength ?? defaultTextMaxLength);
    case 'number':
      return numberIssues(value);
    default:
      return undefined;
  }
}

/**
 * Checks form values against the field configs: required fields, parties, related contracts,
 * bank accounts, money and text lengths. Values of fields the configs do not name are refused.
 */
export function formValueIssues(fields: readonly FieldConfig[], values: Readonly<Record<string, unknown>>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const known = new Set(fields.map((field) => field.id));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) issues.push({ path: `formValues.${key}`, message: 'is not a field of this form' });
  }
  for (const field of fields) {
    const value = values[field.id];
    const path = `formValues.${field.id}`;
    if (isEmpty(value)) {
      if (field.required) issues.push({ path, message: formMessages.required(field) });
      continue;
    }
    const issue = valueIssue(field, value);
    if (issue) issues.push({ path, message: issue });
  }
  return issues;
}

/** Field types never editable in a contract alteration (spec 4). */
const neverAlterable = new Set<FieldConfig['type']>(['upload', 'contractType', 'contractNumber', 'serialNumber']);

/** In contract-alteration mode a field is editable only with alterEditStatus 2, and never for some types (spec 4). */
export function isAlterable(field: FieldConfig): boolean {
  return field.alterEditStatus === 2 && !neverAlterable.has(field.type) && !isContractNameField(field);
}

/** The values an alteration may not change (spec 4): those of fields the form lacks or that are not alterable. */
export function alterationIssues(fields: readonly FieldConfig[], changed: Readonly<Record<string, unknown>>): FieldIssue[] {
  const byId = new Map(fields.map((field) => [field.id, field]));
  return Object.keys(changed).flatMap((fieldId) => {
    const field = byId.get(fieldId);
    return field && isAlterable(field) ? [] : [{ path: `formValues.${fieldId}`, message: 'this field cannot be altered' }];
  });
}

/** The synthetic statement a nullable clause offers to leave it out (spec 3, spec 9: id -1). */
export const doNotShowStatement: ClauseStatement = { id: -1, name: 'do not show this clause', content: [], fieldList: [], labelItemList: [] };

/** The statements to choose from: 'do not show' is added when the clause is nullable and has more than one. */
export function selectableStatements(clause: Pick<Clause, 'isNullable' | 'statementList'>): ClauseStatement[] {
  return clause.isNullable && clause.statementList.length > 1 ? [...clause.statementList, doNotShowStatement] : clause.statementList;
}

/** With exactly one statement, it is selected without asking (spec 4). */
export function autoSelectedStatement(clause: Pick<Clause, 'statementList'>): ClauseStatement | undefined {
  return clause.statementList.length === 1 ? clause.statementList[0] : undefined;
}

/**
 * A contract's name and form values as stored (spec 5): the forbidden characters stripped from the
 * name and from contract-name fields, and every issue of the values. The server applies it to
 * every write; the desktop applies it before queueing one, so an edit the server would refuse
 * fails at once.
 */
export function cleanContractForm(
  name: string,
  fields: readonly FieldConfig[],
  values: Readonly<Record<string, unknown>>,
): { name: string; formValues: Record<string, unknown>; issues: FieldIssue[] } {
  const formValues = { ...values };
  for (const field of fields) {
    const value = formValues[field.id];
    if (isContractNameField(field) && typeof value === 'string') formValues[field.id] = stripContractName(value);
  }
  const cleanName = stripContractName(name);
  const issues = formValueIssues(fields, formValues);
  if (cleanName === '') issues.unshift({ path: 'name', message: 'please enter the contract name' });
  return { name: cleanName, formValues, issues };
}
