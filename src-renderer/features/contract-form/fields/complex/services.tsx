import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { toAppError } from '../../../../../src-shared/errors';
import { errorText } from '../../../../i18n/errorText';

// What the complex fields take from the engine (services, validator registry, message text, the
// form's clauses and page kind), and the one thing the engine does not know: the contract edited.

export { useFormServices } from '../../FormServicesContext';
export { useRegisterValidator } from '../../validators';
export { formMessageText } from '../../messageText';
export { useContractFormContext } from '../../formContext';

const FormContractContext = createContext<{ contractId: string | null; contractTypeId: string | null }>({ contractId: null, contractTypeId: null });

/**
 * The contract the form edits, placed around ContractForm by the screen; without it (a new draft)
 * the score dialog, which scores a saved contract, says 'no data'. Its type (the stored one, or a
 * new draft's template's) numbers it when the form has no contract type field of its own.
 */
export function FormContractProvider({ contractId, contractTypeId = null, children }: { contractId: string | null; contractTypeId?: string | null; children: ReactNode }) {
  const value = useMemo(() => ({ contractId, contractTypeId }), [contractId, contractTypeId]);
  return <FormContractContext.Provider value={value}>{children}</FormContractContext.Provider>;
}

export function useContractId(): string | null {
  return useContext(FormContractContext).contractId;
}

export function useContractTypeId(): string | null {
  return useContext(FormContractContext).contractTypeId;
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
