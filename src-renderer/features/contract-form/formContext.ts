import { createContext, useContext } from 'react';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FieldType, FormMode } from '../../../src-shared/domain/enums';
import type { FormField } from '../../../src-shared/form/field-config';
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
  /**
   * The form's fields, for a field that reads or fills others (the number field reads the contract
   * type chosen in the form; a party picker fills its party's detail fields).
   */
  fields: readonly FormField[];
  /** Sets other fields' values, as if typed (a chosen counterpart's details). */
  changeValues(patch: Readonly<Record<string, unknown>>): void;
}

export const ContractFormContext = createContext<ContractFormContextValue>({
  mode: 'edit',
  alteration: false,
  clauses: [],
  templateApproval: false,
  fieldComponents: {},
  fields: [],
  changeValues: () => undefined,
});

export function useContractFormContext(): ContractFormContextValue {
  return useContext(ContractFormContext);
}
