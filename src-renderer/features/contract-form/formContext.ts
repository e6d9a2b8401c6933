import { createContext, useContext } from 'react';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormMode } from '../../../src-shared/domain/enums';

/** What the whole form knows that some fields need beyond FieldProps (clause fields, numbering). */
export interface ContractFormContextValue {
  /** The form's own mode (each field's mode is in FieldProps). */
  mode: FormMode;
  alteration: boolean;
  clauses: readonly Clause[];
  /** A template-approval page skips inserting statement text at bookmarks (spec 4). */
  templateApproval: boolean;
}

export const ContractFormContext = createContext<ContractFormContextValue>({ mode: 'edit', alteration: false, clauses: [], templateApproval: false });

export function useContractFormContext(): ContractFormContextValue {
  return useContext(ContractFormContext);
}
