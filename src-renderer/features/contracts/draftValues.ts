import type { TFunction } from 'i18next';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { isContractNameField, isFieldEditable } from '../../../src-shared/form/editability';
import { formFieldsSchema, isBlankValue, type FormField } from '../../../src-shared/form/field-config';
import { alterContractRequestSchema, type ContractRefusal } from '../../../src-shared/ipc/drafting';
import type { RefusedValue } from '../contract-form';
import { errorText } from '../../i18n/errorText';
import { blankContractFields } from '../../../src-shared/rules/blank-contract';
import { termField } from '../../../src-shared/rules/contract-terms';

// What a contract's save request takes from the form: the template's fields as the engine reads
// them, the contract name and number held by their fields, and the values an alteration changed.

/** The template's field configs as form fields; null when the template's config does not parse. */
export function templateFormFields(template: Pick<TemplateDetail, 'fields'> | undefined | null): FormField[] | null {
  if (!template) return [];
  const parsed = formFieldsSchema.safeParse(template.fields);
  return parsed.success ? parsed.data : null;
}

/** The built-in blank contract form as form fields, labelled in the user's language. */
export function blankFormFields(t: TFunction): FormField[] {
  return formFieldsSchema.parse(blankContractFields).map((field, i) => ({ ...field, name: t(`contracts.blankForm.${blankContractFields[i]!.id}`) }));
}

/**
 * A contract's form fields: its template's field configs (null when they do not parse), or the
 * blank contract form without a template.
 */
export function contractFormFields(templateId: string | null, template: Pick<TemplateDetail, 'fields'> | undefined | null, t: TFunction): FormField[] | null {
  return templateId === null ? blankFormFields(t) : templateFormFields(template);
}

/** A new draft's first values: the template's contract type in the form's type field (issue 29: it numbers the draft). */
export function initialDraftValues(fields: readonly FormField[], contractTypeId: string | null): Record<string, unknown> {
  const typeField = termField(fields, 'contractType');
  return typeField && contractTypeId !== null ? { [typeField.id]: contractTypeId } : {};
}

/** The field that holds the contract's name, when the template has one (spec 4: 'contract name'). */
export function contractNameField(fields: readonly FormField[]): FormField | undefined {
  return fields.find(isContractNameField);
}

/** The number typed into the contract-number field; null asks the core for an automatic one. */
export function typedContractNumber(fields: readonly FormField[], values: Readonly<Record<string, unknown>>): string | null {
  const field = fields.find((f) => f.type === 'contractNumber');
  const value = field ? values[field.id] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * The form values as the contract page shows them: the contract's number (automatic, provisional
 * or given) in its contract-number field when the field holds none, so the header and the form
 * show one number.
 */
export function withContractNumber(fields: readonly FormField[], values: Readonly<Record<string, unknown>>, contractNumber: string | null): Readonly<Record<string, unknown>> {
  const field = fields.find((f) => f.type === 'contractNumber');
  if (!field || contractNumber === null || !isBlankValue(values[field.id])) return values;
  return { ...values, [field.id]: contractNumber };
}

/**
 * The values a save sends: the number shown from the contract (not typed) stays the contract's
 * own, so a provisional one the server replaces is not kept in the form.
 */
export function withoutShownNumber(fields: readonly FormField[], values: Readonly<Record<string, unknown>>, contractNumber: string | null): Record<string, unknown> {
  const field = fields.find((f) => f.type === 'contractNumber');
  if (!field || contractNumber === null || values[field.id] !== contractNumber) return { ...values };
  const { [field.id]: _shown, ...rest } = values;
  return rest;
}

/** JSON with object keys sorted: the same value written with its keys in another order is the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/**
 * The values an alteration changed, of the fields an alteration may change (only those are sent,
 * spec 4). A field emptied in the form is sent as null (an absent value would not cross to the
 * core); an empty value that was empty before is no change.
 */
export function changedValues(fields: readonly FormField[], before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    fields
      .filter((field) => isFieldEditable(field, { alteration: true }))
      .flatMap((field) => {
        const [was, now] = [before[field.id], after[field.id]];
        if (isBlankValue(was) && isBlankValue(now)) return [];
        return canonical(was) === canonical(now) ? [] : [[field.id, now ?? null]];
      }),
  );
}

/** The reason's rule is the alter request's (trimmed, 1..2000): its message, or null when valid. */
export function reasonError(reason: string): 'contracts.reasonRequired' | 'contracts.reasonTooLong' | null {
  const checked = alterContractRequestSchema.shape.reason.safeParse(reason);
  if (checked.success) return null;
  return checked.error.issues[0]?.code === 'too_big' ? 'contracts.reasonTooLong' : 'contracts.reasonRequired';
}

/**
 * The form as a refused edit left it: the contract's values with the edit's on top, its number
 * shown in the number field, so the user corrects what they sent.
 */
export function refusedFormValues(fields: readonly FormField[], contract: { formValues: Readonly<Record<string, unknown>>; contractNumber: string | null }, refusal: ContractRefusal): Readonly<Record<string, unknown>> {
  const values = { ...contract.formValues, ...refusal.formValues };
  return withContractNumber(fields, values, refusal.contractNumber ?? contract.contractNumber);
}

/**
 * The fields a refusal names, each with why (in the user's language) and the value it refused:
 * the issues' paths of the edit's args (name, number, form values; an update's under `patch.`).
 */
export function refusedFields(t: TFunction, fields: readonly FormField[], values: Readonly<Record<string, unknown>>, refusal: ContractRefusal): Record<string, RefusedValue> {
  const error = refusal.error;
  if (!error) return {};
  const byPath = (path: string): FormField | undefined => {
    const bare = path.startsWith('patch.') ? path.slice('patch.'.length) : path;
    if (bare === 'name') return fields.find(isContractNameField);
    if (bare === 'contractNumber') return fields.find((f) => f.type === 'contractNumber');
    const id = bare.startsWith('formValues.') ? bare.slice('formValues.'.length).split('.')[0] : undefined;
    return fields.find((f) => f.id === id);
  };
  const named = (error.issues ?? []).map((issue) => byPath(issue.path));
  // The server's words on a value are English: the reason, else the form's own sentence for a refused value.
  const message = error.reason ? errorText(t, error) : t('contractPage.refusal.fieldRefused');
  return Object.fromEntries(named.flatMap((field) => (field ? [[field.id, { message, value: values[field.id] }]] : [])));
}
