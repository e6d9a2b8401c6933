import { useRef, useState } from 'react';
import { Button, Callout, H4 } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ContractStatus } from '../../../src-shared/domain/enums';
import { defaultErrorMessages } from '../../../src-shared/errors';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { isEditableStatus } from '../../../src-shared/rules/contract-status';
import { useAlterContractMutation, useContractDetailQuery, useSaveContractFormMutation, useTemplateQuery } from '../../api/api';
import { showFailure, showNotice } from '../../app/toaster';
import type { ContractFormHandle, FormServices } from '../contract-form';
import { AlterationReason } from './AlterationReason';
import { ContractHeader } from './ContractHeader';
import { CooperationSection } from './CooperationSection';
import { changedValues, contractNameField, reasonError, templateFormFields, typedContractNumber } from './draftValues';
import { DraftForm } from './DraftForm';
import { ScreenState } from './ScreenState';
import { useBridgeFormServices } from './useBridgeFormServices';
import { useSaveFailure } from './useSaveFailure';

type DetailMode = 'view' | 'edit' | 'alter';

function ContractDetail({ contract, services }: { contract: ReplicaContractDetail; services: FormServices }) {
  const { t } = useTranslation();
  const { data: template, error: templateError } = useTemplateQuery(contract.templateId ?? skipToken);
  const formRef = useRef<ContractFormHandle>(null);
  const [mode, setMode] = useState<DetailMode>('view');
  const [values, setValues] = useState<Readonly<Record<string, unknown>>>(contract.formValues);
  const [reason, setReason] = useState('');
  const [reasonMessage, setReasonMessage] = useState<string | null>(null);
  const [saveForm, saveState] = useSaveContractFormMutation();
  const [alter, alterState] = useAlterContractMutation();
  const saveFailed = useSaveFailure();

  if (contract.templateId && !template) return <ScreenState error={templateError} title={t('contracts.templateLoadFailed')} />;
  const fields = templateFormFields(template);
  if (!fields) return <Callout intent="danger" icon="error" title={t('contracts.templateLoadFailed')} />;
  const nameField = contractNameField(fields);

  // Editing starts from the contract as it is now (a sync may have changed it since the screen opened).
  const enter = (next: DetailMode) => {
    setValues(contract.formValues);
    setReason('');
    setReasonMessage(null);
    setMode(next);
  };
  const leave = () => enter('view');

  const save = async () => {
    try {
      const formValues = await formRef.current!.submit();
      const typedName = nameField ? formValues[nameField.id] : contract.name;
      const contractNumber = typedContractNumber(fields, formValues);
      await saveForm({
        id: contract.id,
        name: typeof typedName === 'string' ? typedName.trim() : contract.name,
        contractTypeId: contract.contractTypeId,
        ...(contractNumber !== null && contractNumber !== contract.contractNumber ? { contractNumber } : {}),
        formValues,
      }).unwrap();
      showNotice(t('contracts.savedOffline'));
      setMode('view');
    } catch (cause) {
      saveFailed(cause);
    }
  };

  const saveAlteration = async () => {
    const reasonKey = reasonError(reason);
    setReasonMessage(reasonKey && t(reasonKey));
    try {
      const formValues = await formRef.current!.submit();
      if (reasonKey) return showFailure(t('form.validationFailed'));
      const changed = changedValues(fields, contract.formValues, formValues);
      if (Object.keys(changed).length === 0) return showFailure(t('contracts.nothingChanged'));
      await alter({ id: contract.id, formValues: changed, reason: reason.trim() }).unwrap();
      showNotice(t('contracts.altered'));
      leave();
    } catch (cause) {
      saveFailed(cause);
    }
  };

  return (
    <section className="contract-screen" data-testid="contract-detail" data-mode={mode}>
      <ContractHeader contract={contract} />
      {mode === 'alter' && <H4>{t('contracts.alterationTitle')}</H4>}
      <DraftForm
        services={services}
        fields={fields}
        clauses={template?.clauses ?? []}
        contractId={contract.id}
        formRef={formRef}
        mode={mode === 'view' ? 'preview' : 'edit'}
        alteration={mode === 'alter'}
        values={mode === 'view' ? contract.formValues : values}
        onValuesChange={setValues}
      />
      {mode === 'alter' && <AlterationReason value={reason} error={reasonMessage} onChange={setReason} />}
      <div className="contract-draft__actions">
        {mode === 'view' && isEditableStatus(contract.status) && (
          <Button icon="edit" data-testid="contract-edit" text={t('contracts.edit')} onClick={() => enter('edit')} />
        )}
        {mode === 'view' && contract.status === ContractStatus.Approved && (
          <Button icon="changes" data-testid="contract-alter" text={t('contracts.alter')} onClick={() => enter('alter')} />
        )}
        {mode === 'edit' && (
          <Button intent="primary" icon="floppy-disk" loading={saveState.isLoading} data-testid="contract-save" text={t('contracts.save')} onClick={() => void save()} />
        )}
        {mode === 'alter' && (
          <Button intent="primary" icon="floppy-disk" loading={alterState.isLoading} data-testid="alteration-save" text={t('contracts.save')} onClick={() => void saveAlteration()} />
        )}
        {mode !== 'view' && <Button data-testid="contract-cancel" text={t('contracts.cancel')} onClick={leave} />}
      </div>
      <CooperationSection contractId={contract.id} mode={mode === 'view' ? 'preview' : 'edit'} services={services} />
    </section>
  );
}

/**
 * /standingBook/detail?contractId=…&mode=contract (a new tab from the ledger) or ?id=… (pushed in
 * place): the contract from the replica in preview mode; edit while drafting or rejected (saved
 * through 'contract.saveForm'), alter once approved (through 'contract.alter').
 */
export function ContractDetailScreen() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('contractId') ?? searchParams.get('id');
  const { services, error: servicesError } = useBridgeFormServices();
  const { data: contract, error } = useContractDetailQuery(id ?? skipToken);
  if (id === null) return <ScreenState error={{ code: 'not_found', message: defaultErrorMessages.not_found }} title={t('contracts.loadFailed')} />;
  if (!contract || !services) return <ScreenState error={error ?? servicesError} title={t('contracts.loadFailed')} />;
  return <ContractDetail key={contract.id} contract={contract} services={services} />;
}
