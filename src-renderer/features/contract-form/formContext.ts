import { createContext, useContext } from 'react';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FieldType, FormMode } from '../../../src-shared/domain/enums';
import type { FieldComponent } from './types';

/** What the whole form knows that some fields need beyond FieldProps (clause fields, numbering). */
export interface ContractFormContextValue {
  /** The form's own mode (each field's mode is in FieldProps). */
  mode: FormMode;
  alteration: boolean;
  clauses: readonly Clause[];
  /** A template-approval page skips inserting statement text at bookmarks (spec 4). */
  templateApproval: boolean;
  /**
   * The component of each field type, for fields that draw sub-fields (a clause's statement
   * fields). Given by the engine rather than imported, as the registry imports those fields.
   */
  fieldComponents: Partial<Record<FieldType, FieldComponent>>;
}

export const ContractFormContext = createContext<ContractFormContextValue>({
  mode: 'edit',
  alteration: false,
  clauses: [],
  templateApproval: false,
  fieldComponents: {},
});

export function useContractFormContext(): ContractFormContextValue {
  return useContext(ContractFormContext);
}
