import { createContext, useContext, useEffect, useRef } from 'react';
import type { TFunction } from 'i18next';
import type { Clause } from '../../../../../src-shared/domain/contract-forms';
import type { FormIssue, FormMessage } from '../../../../../src-shared/form/messages';
import { toAppError } from '../../../../../src-shared/errors';
import { errorText } from '../../../../i18n/errorText';
import type { FormServices } from '../../types';

// What the complex fields need from the form engine beyond FieldProps: the services, the form's
// clauses and page kind, and a way to add their own validators to the form's validation (spec 5:
// the overall validation collects the clause sub-forms and the party validators). The engine
// (`ContractForm`) provides this context; tests provide fakes.

/** A field's extra validator, run by the engine's overall validation with the form's current values. */
export type FieldValidator = (values: Readonly<Record<string, unknown>>) => FormIssue[];

export interface ComplexFieldsContextValue {
  services: FormServices;
  /** The template's clauses (ContractFormProps.clauses); a clause field is the clause whose labelID is its id. */
  clauses: readonly Clause[];
  /** ContractFormProps.templateApproval: statement text is not inserted at bookmarks. */
  templateApproval: boolean;
  /** The contract the form edits; null while drafting a new one (the score dialog needs a saved contract). */
  contractId: string | null;
  /** Adds a validator for a field; the returned function removes it. */
  registerValidator(fieldId: string, validator: FieldValidator): () => void;
}

export const ComplexFieldsContext = createContext<ComplexFieldsContextValue | null>(null);

function useComplexFields(): ComplexFieldsContextValue {
  const value = useContext(ComplexFieldsContext);
  if (!value) throw new Error('Complex form fields render inside ContractForm (ComplexFieldsContext is missing).');
  return value;
}

export function useFormServices(): FormServices {
  return useComplexFields().services;
}

export function useFormClauses(): { clauses: readonly Clause[]; templateApproval: boolean } {
  const { clauses, templateApproval } = useComplexFields();
  return { clauses, templateApproval };
}

/** Keeps a field's validator registered while the field is mounted; always calls the latest one. */
export function useRegisterValidator(fieldId: string, validator: FieldValidator): void {
  const { registerValidator } = useComplexFields();
  const latest = useRef(validator);
  useEffect(() => {
    latest.current = validator;
  });
  useEffect(() => registerValidator(fieldId, (values) => latest.current(values)), [registerValidator, fieldId]);
}

/** A form message in the UI language (the catalogs' `form` section has every key). */
export function formText(t: TFunction, message: FormMessage): string {
  // Typed keys cannot check the parameters of a key chosen at run time; every form key takes at most strings.
  const translate = t as unknown as (key: `form.${FormMessage['key']}`, options: { replace: Record<string, string> }) => string;
  return translate(`form.${message.key}`, { replace: message.params ?? {} });
}

/** The text of a failed online call: offline errors and server errors by code, as elsewhere. */
export function callFailureText(t: TFunction, error: unknown): string {
  return errorText(t, toAppError(error));
}

export function useContractId(): string | null {
  return useComplexFields().contractId;
}
