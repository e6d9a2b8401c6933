import { createContext, useContext, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { Clause } from '../../../../../src-shared/domain/contract-forms';
import { toAppError } from '../../../../../src-shared/errors';
import { errorText } from '../../../../i18n/errorText';

// What the complex fields need beyond FieldProps, the engine's FormServices context and its
// validator registry: the template's clauses, the kind of page, and the contract being edited.

export { useFormServices } from '../../FormServicesContext';
export { useRegisterValidator } from '../../validators';
export { formMessageText } from '../../messageText';

export interface ComplexFieldsContextValue {
  /** The template's clauses (ContractFormProps.clauses); a clause field is the clause whose labelID is its id. */
  clauses: readonly Clause[];
  /** ContractFormProps.templateApproval: statement text is not inserted at bookmarks. */
  templateApproval: boolean;
  /** The contract the form edits; null while drafting a new one (the score dialog needs a saved contract). */
  contractId: string | null;
}

const noClauses: readonly Clause[] = [];
const ComplexFieldsContext = createContext<ComplexFieldsContextValue>({ clauses: noClauses, templateApproval: false, contractId: null });

/** Placed around ContractForm by the engine or the screen that hosts it. */
export function ComplexFieldsProvider({ children, ...value }: Partial<ComplexFieldsContextValue> & { children: ReactNode }) {
  const { clauses = noClauses, templateApproval = false, contractId = null } = value;
  return <ComplexFieldsContext.Provider value={{ clauses, templateApproval, contractId }}>{children}</ComplexFieldsContext.Provider>;
}

export function useFormClauses(): { clauses: readonly Clause[]; templateApproval: boolean } {
  const { clauses, templateApproval } = useContext(ComplexFieldsContext);
  return { clauses, templateApproval };
}

export function useContractId(): string | null {
  return useContext(ComplexFieldsContext).contractId;
}

/** The core answers 'offline' for a server-only call while the server is away; 'server_unreachable' when a call got that far. */
const offlineCodes: readonly string[] = ['offline', 'server_unreachable'];

export function isOfflineFailure(failure: unknown): boolean {
  const code = typeof failure === 'object' && failure !== null && 'code' in failure ? failure.code : undefined;
  return typeof code === 'string' && offlineCodes.includes(code);
}

/** The text of a failed online call: offline errors and server errors by code, as elsewhere. */
export function callFailureText(t: TFunction, error: unknown): string {
  return errorText(t, toAppError(error));
}
