// The generic form's public surface for screens and field components.
export { ContractForm, scrollToFieldDelayMs } from './ContractForm';
export { FormServicesContext, FormServicesProvider, useFormServices } from './FormServicesContext';
export { ContractFormContext, useContractFormContext, type ContractFormContextValue } from './formContext';
export { useRegisterValidator, type FieldValidator } from './validators';
export { fieldTypesReadingValues } from './FieldRow';
export { fieldInputId, fieldRowId } from './ids';
export { formMessageText } from './messageText';
export type { ContractFormHandle, ContractFormProps, FieldComponent, FieldProps, FormServices, RefusedValue, UploadOptions } from './types';
export { fieldComponents } from './fields/registry';
