import type { Ref } from 'react';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormField } from '../../../src-shared/form/field-config';
import { ContractForm, FormServicesProvider, type ContractFormHandle, type ContractFormProps, type FormServices } from '../contract-form';
import { FormContractProvider } from '../contract-form/fields/complex/services';

/**
 * The generic form on a contract screen: the core-backed services, and the contract being edited
 * (null while drafting), which the complex fields read beside them.
 */
export function DraftForm({
  services,
  fields,
  clauses,
  contractId,
  contractTypeId,
  formRef,
  ...props
}: Omit<ContractFormProps, 'fields' | 'clauses'> & {
  services: FormServices;
  fields: readonly FormField[];
  clauses: readonly Clause[];
  contractId: string | null;
  /** The contract's type as stored, or a new draft's template's (none on a template's own preview). */
  contractTypeId?: string | null;
  formRef: Ref<ContractFormHandle>;
}) {
  return (
    <FormServicesProvider services={services}>
      <FormContractProvider contractId={contractId} contractTypeId={contractTypeId}>
        <ContractForm ref={formRef} fields={fields} clauses={clauses} {...props} />
      </FormContractProvider>
    </FormServicesProvider>
  );
}
