import type { Ref } from 'react';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormField } from '../../../src-shared/form/field-config';
import { ContractForm } from '../contract-form/ContractForm';
import { FormServicesProvider } from '../contract-form/FormServicesContext';
import type { ContractFormHandle, ContractFormProps, FormServices } from '../contract-form/types';

/** The generic form on a contract screen, with the core-backed services. */
export function DraftForm({
  services,
  fields,
  clauses,
  formRef,
  ...props
}: Omit<ContractFormProps, 'fields' | 'clauses'> & {
  services: FormServices;
  fields: readonly FormField[];
  clauses: readonly Clause[];
  formRef: Ref<ContractFormHandle>;
}) {
  return (
    <FormServicesProvider services={services}>
      <ContractForm ref={formRef} fields={fields} clauses={clauses} {...props} />
    </FormServicesProvider>
  );
}
