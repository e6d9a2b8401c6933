/** The id of a field's input, so the row's label points at it. */
export const fieldInputId = (fieldId: string) => `contract-form-input-${fieldId}`;
/** The id of a field's row (scrolled to after a failed submit). */
export const fieldRowId = (fieldId: string) => `contract-form-field-${fieldId}`;
