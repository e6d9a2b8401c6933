import type { FieldType } from '../domain/enums';
import { validateBankAccount } from './bank-account';
import { validateClause, type ClauseValue } from './clause';
import { parseDate, parseDateRange, dateTimeValueFormat } from './dates';
import { hasAmount, isBlankValue, type FormField, type PartyValue, type RelationGroup } from './field-config';
import { formMessage, formMessages, type FormIssue, type FormMessage } from './messages';
import { parseNumberInput } from './number-range';
import { validateRequiredParty } from './parties';
import { validateRelatedContracts } from './related-contracts';

// Spec 5 "Generic form": the overall validation collects every field's rules, the clause
// sub-forms and the party validators; any failure is one 'validation failed' error carrying the
// field issues, and the submit action reports it as an error event of type validate.

export const textMaxLength = 1000;

type RuleField = Pick<FormField, 'id' | 'name' | 'type' | 'required' | 'maxlength'>;

/** Types whose required message asks to select rather than enter (spec 5: upload). */
const selectedTypes: readonly FieldType[] = ['upload'];

/** 'please enter X', or 'please select X' for upload. */
export function requiredMessage(field: Pick<FormField, 'name' | 'type'>): FormMessage {
  return formMessage(selectedTypes.includes(field.type) ? 'pleaseSelect' : 'pleaseEnter', { name: field.name });
}

/** Money is empty when it has no amount or an amount of 0 (spec 5). */
export function isMoneyEmpty(value: unknown): boolean {
  return !hasAmount(value) || value.amount === 0;
}

const partyTypes: readonly FieldType[] = ['inputSelect', 'inputSelectV2'];

/** The rules of one field, as run on blur and on submit. */
export function validateField(field: RuleField, value: unknown): FormIssue[] {
  const key = field.id;
  const issue = (message: FormMessage | null): FormIssue[] => (message ? [{ field: key, message }] : []);
  if (field.type === 'clause') return validateClause(key, field.name, value as ClauseValue | null | undefined);
  if (partyTypes.includes(field.type)) return issue(validateRequiredParty(field, value as PartyValue[] | null | undefined));
  const empty = field.type === 'money' ? isMoneyEmpty(value) : isBlankValue(value);
  if (empty) return field.required ? issue(requiredMessage(field)) : [];
  switch (field.type) {
    case 'text':
    case 'textarea': {
      const max = Math.min(field.maxlength ?? textMaxLength, textMaxLength);
      return issue(String(value).length > max ? formMessage('textTooLong', { max: String(max) }) : null);
    }
    case 'number':
      return issue(typeof value === 'number' || parseNumberInput(String(value)).ok ? null : formMessage('invalidNumber'));
    case 'date':
      return issue(parseDate(String(value)).ok ? null : formMessage('invalidDate'));
    case 'date-time':
      return issue(parseDate(String(value), dateTimeValueFormat).ok ? null : formMessage('invalidDate'));
    case 'daterange': {
      const range = value as [string, string];
      const parsed = Array.isArray(range) && range.length === 2 ? parseDateRange(range) : null;
      return issue(parsed?.ok ? null : (parsed?.message ?? formMessage('invalidDate')));
    }
    case 'bankAccount':
      return issue(validateBankAccount(String(value), field.maxlength));
    case 'relatedContracts':
      return validateRelatedContracts(value as RelationGroup[]).map(({ group, row, message }) => ({
        field: row === undefined ? `${key}.${group}` : `${key}.${group}.${row}`,
        message,
      }));
    default:
      return [];
  }
}

/** The error the overall validation throws: 'validation failed', with every field issue. */
export class FormValidationError extends Error {
  readonly issues: FormIssue[];
  /** What the submit action emits (spec 5): an error event of type validate. */
  readonly event: ValidateErrorEvent;
  constructor(issues: FormIssue[]) {
    super(formMessages.validationFailed);
    this.name = 'FormValidationError';
    this.issues = issues;
    this.event = { type: 'validate', issues };
  }
}

export interface ValidateErrorEvent {
  type: 'validate';
  issues: FormIssue[];
}

const isIgnored = (key: string, ignored: ReadonlySet<string>) => ignored.has(key) || ignored.has(key.split('.')[0]!);

/**
 * The form's validation. Fields can be set aside (a list of ignorable field keys, e.g. parts a
 * screen hides) and the list cleared again.
 */
export class FormValidation {
  private ignored = new Set<string>();

  ignore(keys: readonly string[]): void {
    for (const key of keys) this.ignored.add(key);
  }

  clearIgnored(): void {
    this.ignored.clear();
  }

  get ignoredKeys(): string[] {
    return [...this.ignored];
  }

  /** Every issue of every field not ignored. */
  issues(fields: readonly RuleField[], values: Readonly<Record<string, unknown>>): FormIssue[] {
    return fields.filter((f) => !this.ignored.has(f.id)).flatMap((f) => validateField(f, values[f.id])).filter((i) => !isIgnored(i.field, this.ignored));
  }

  /** Throws FormValidationError ('validation failed') when any field fails. */
  validate(fields: readonly RuleField[], values: Readonly<Record<string, unknown>>): void {
    const issues = this.issues(fields, values);
    if (issues.length > 0) throw new FormValidationError(issues);
  }

  /** Submitting validates first: the values to save, or the validate error event. */
  submit<V extends Readonly<Record<string, unknown>>>(fields: readonly RuleField[], values: V): { type: 'submit'; values: V } | { type: 'error'; event: ValidateErrorEvent } {
    try {
      this.validate(fields, values);
      return { type: 'submit', values };
    } catch (error) {
      if (error instanceof FormValidationError) return { type: 'error', event: error.event };
      throw error;
    }
  }
}
