import { useRef, useState } from 'react';
import { Button, Callout, H3 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { formMessage } from '../../../src-shared/form/messages';
import { FormValidationError } from '../../../src-shared/form/validation';
import { useCreateContractMutation } from '../../api/api';
import type { ContractFormHandle, FormServices } from '../contract-form';
import { ContractNameInput } from './ContractNameInput';
import { contractTypeOf } from '../../../src-shared/rules/contract-terms';
import { contractFormFields, contractNameField, initialDraftValues, typedContractNumber } from './draftValues';
import { DraftForm } from './DraftForm';
import { useSaveFailure } from './useSaveFailure';

/**
 * Drafting a new contract, from a template or blank (the built-in blank form): the form with its clauses (each
 * clause field shows its statement's text as it lands at the template's bookmark), saved through 'contract.create' into the replica and the outbox, so it works
 * offline; the core gives a provisional number when the number is automatic. Opens the new
 * contract's detail once saved.
 */
export function ContractDraft({ template, services }: { template: TemplateDetail | null; services: FormServices }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const formRef = useRef<ContractFormHandle>(null);
  const fields = contractFormFields(template?.id ?? null, template, t);
  const templateTypeId = template?.contractTypeId ?? null;
  // A draft from a template starts with the template's contract type (it numbers the draft).
  const [values, setValues] = useState<Record<string, unknown>>(() => (fields ? initialDraftValues(fields, templateTypeId) : {}));
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [create, { isLoading }] = useCreateContractMutation();
  const saveFailed = useSaveFailure();
  if (!fields) return <Callout intent="danger" icon="error" title={t('contracts.templateLoadFailed')} />;
  const nameField = contractNameField(fields);
  const clauses = template?.clauses ?? [];

  const save = async () => {
    const missingName = !nameField && name.trim() === '';
    setNameError(missingName ? t('contracts.nameRequired') : null);
    try {
      const formValues = await formRef.current!.submit();
      if (missingName) throw new FormValidationError([{ field: 'name', message: formMessage('pleaseEnter', { name: 'contract name' }) }]);
      const typedName = nameField ? formValues[nameField.id] : name;
      const created = await create({
        name: typeof typedName === 'string' ? typedName.trim() : '',
        templateId: template?.id ?? null,
        contractTypeId: contractTypeOf(fields, formValues, templateTypeId),
        contractNumber: typedContractNumber(fields, formValues),
        formValues,
      }).unwrap();
      void navigate(`/standingBook/detail?${new URLSearchParams({ id: created.id })}`);
    } catch (cause) {
      saveFailed(cause);
    }
  };

  return (
    <section className="contract-draft" data-testid="contract-draft">
      <H3>{template ? template.name : t('contracts.blankContract')}</H3>
      {!nameField && <ContractNameInput value={name} error={nameError} onChange={setName} />}
      <DraftForm
        services={services}
        fields={fields}
        clauses={clauses}
        contractId={null}
        contractTypeId={templateTypeId}
        formRef={formRef}
        mode="edit"
        values={values}
        onValuesChange={setValues}
      />
      <div className="contract-draft__actions">
        <Button intent="primary" icon="floppy-disk" loading={isLoading} data-testid="contract-save" text={t('contracts.save')} onClick={() => void save()} />
      </div>
    </section>
  );
}
