import type { Ref } from 'react';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormField } from '../../../src-shared/form/field-config';
import { ContractForm, FormServicesProvider, type ContractFormHandle, type ContractFormProps, type FormServices } from '../contract-form';
import { ComplexFieldsProvider } from '../contract-form/fields/complex/services';

/**
 * The generic form on a contract screen: the core-backed services, and what the complex fields
 * read beside them (the template's clauses, the contract being edited, null while drafting).
 */
export function DraftForm({
  services,
  fields,
  clauses,
  contractId,
  formRef,
  ...props
}: Omit<ContractFormProps, 'fields' | 'clauses'> & {
  services: FormServices;
  fields: readonly FormField[];
  clauses: readonly Clause[];
  contractId: string | null;
  formRef: Ref<ContractFormHandle>;
}) {
  return (
    <FormServicesProvider services={services}>
      <ComplexFieldsProvider clauses={clauses} templateApproval={props.templateApproval ?? false} contractId={contractId}>
        <ContractForm ref={formRef} fields={fields} clauses={clauses} {...props} />
      </ComplexFieldsProvider>
    </FormServicesProvider>
  );
}
