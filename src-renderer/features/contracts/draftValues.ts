import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { isContractNameField } from '../../../src-shared/form/editability';
import { formFieldsSchema, type FormField } from '../../../src-shared/form/field-config';
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

/** The values an alteration changed (only those are sent, spec 4). */
export function changedValues(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
}

/** The reason's rule is the alter request's (trimmed, 1..2000): its message, or null when valid. */
export function reasonError(reason: string): 'contracts.reasonRequired' | 'contracts.reasonTooLong' | null {
  const checked = alterContractRequestSchema.shape.reason.safeParse(reason);
  if (checked.success) return null;
  return checked.error.issues[0]?.code === 'too_big' ? 'contracts.reasonTooLong' : 'contracts.reasonRequired';
}
