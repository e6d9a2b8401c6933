import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { isContractNameField, isFieldEditable } from '../../../src-shared/form/editability';
import { formFieldsSchema, isBlankValue, type FormField } from '../../../src-shared/form/field-config';
import { alterContractRequestSchema } from '../../../src-shared/ipc/drafting';

// What a contract's save request takes from the form: the template's fields as the engine reads
// them, the contract name and number held by their fields, and the values an alteration changed.

/** The template's field configs as form fields; null when the template's config does not parse. */
export function templateFormFields(template: Pick<TemplateDetail, 'fields'> | undefined | null): FormField[] | null {
  if (!template) return [];
  const parsed = formFieldsSchema.safeParse(template.fields);
  return parsed.success ? parsed.data : null;
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
