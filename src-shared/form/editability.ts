import type { FieldType, FormMode } from '../domain/enums';
import { alterEditableStatus, type FormField } from './field-config';

// Spec 4, "Form editability": who may change a field, and how the field is shown in each form mode.

/** Types that contract alteration never lets anyone change. */
export const neverAlterableTypes: readonly FieldType[] = ['upload', 'contractType', 'contractNumber', 'serialNumber'];

/** The field named 'contract name' (the spec's name, and the name a Chinese template gives it). */
export const contractNameFieldNames: readonly string[] = ['contract name', '合同名称'];

export interface EditabilityContext {
  /** The form edits a contract alteration. */
  alteration: boolean;
}

type EditabilityField = Pick<FormField, 'type' | 'name' | 'isEdit' | 'alterEditStatus'>;

export function isContractNameField(field: Pick<FormField, 'name'>): boolean {
  return contractNameFieldNames.includes(field.name.trim());
}

/** The spec's rule: alteration opens only alterEditStatus 2 (never the fixed types); else isEdit closes a field. */
export function isFieldEditable(field: EditabilityField, context: EditabilityContext): boolean {
  if (context.alteration) {
    return field.alterEditStatus === alterEditableStatus && !neverAlterableTypes.includes(field.type) && !isContractNameField(field);
  }
  return !field.isEdit;
}

/** How one field renders: read-only text (preview), a locked input (disabled) or an input (edit). */
export function fieldMode(
  field: EditabilityField & Pick<FormField, 'preview' | 'disabled'>,
  formMode: FormMode,
  context: EditabilityContext,
): FormMode {
  if (formMode === 'preview' || field.preview) return 'preview';
  if (formMode === 'disabled' || field.disabled || !isFieldEditable(field, context)) return 'disabled';
  return 'edit';
}

/** Enter submits the form only when the form asks for it (spec 2, "Generic form"). */
export function shouldSubmitOnEnter(key: string, submitOnEnter: boolean): boolean {
  return submitOnEnter && key === 'Enter';
}
