import { useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Button, Callout, H4, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { RefusalDiscardAlert } from '../sync/RefusalDiscardAlert';
import { skipToken } from '@reduxjs/toolkit/query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ContractStatus } from '../../../src-shared/domain/enums';
import { defaultErrorMessages } from '../../../src-shared/errors';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { isEditableStatus } from '../../../src-shared/rules/contract-status';
import { useAlterContractMutation, useContractDetailQuery, useDismissProblemMutation, useSaveContractFormMutation, useTemplateQuery } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';
import { showFailure, showNotice } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import type { ContractFormHandle, FormServices } from '../contract-form';
import { ContractScoreDialog } from './ContractScoreDialog';
import { ArchiveAction } from '../archive/ArchiveDialog';
import { ArchivedPdf } from '../archive/ArchivedPdf';
import { AlterationReason } from './AlterationReason';
import { ContractAttachments } from './ContractAttachments';
import { ContractHeader } from './ContractHeader';
import { ContractHistory } from './ContractHistory';
import { contractPageTabs, queryWithTab, tabFromQuery, type ContractPageTab } from './contractPageTabs';
import { QuickTaskButton } from '../performance/QuickTaskDialog';
import { PerformanceTab } from '../fulfilment/PerformanceTab';
import { ContractDocumentTab } from '../contract-document/ContractDocumentTab';
import { CooperationSection } from './CooperationSection';
import { contractTypeOf } from '../../../src-shared/rules/contract-terms';
import {
  changedValues,
  contractFormFields,
  contractNameField,
  reasonError,
  refusedFields,
  refusedFormValues,
  typedContractNumber,
  withContractNumber,
  withoutShownNumber,
} from './draftValues';
import { DraftForm } from './DraftForm';
import { ScreenState } from './ScreenState';
import { useBridgeFormServices } from './useBridgeFormServices';
import { useSaveFailure } from './useSaveFailure';

type PageMode = 'view' | 'edit' | 'alter';

export interface ContractPageProps {
  /**
   * The approval steps (submit, approve, reject) this user may take on the contract as it is now,
   * shown among the page's actions while it is viewed. The approval work supplies them; without
   * it the page offers none.
   */
  approvalActions?: (contract: ReplicaContractDetail) => ReactNode;
}

function ContractPageBody({ contract, services, approvalActions }: ContractPageProps & { contract: ReplicaContractDetail; services: FormServices }) {
  const { t } = useTranslation();
  const [query, setQuery] = useSearchParams();
  const { data: template, error: templateError } = useTemplateQuery(contract.templateId ?? skipToken);
  const formRef = useRef<ContractFormHandle>(null);
  const [mode, setMode] = useState<PageMode>('view');
  // Null while the contract's template cannot be had (offline before it was ever kept): the basic
  // tab says so, every other tab works from the contract itself.
  const fields = contract.templateId !== null && !template ? null : contractFormFields(contract.templateId, template, t);
  const formFields = fields ?? [];
  // The form shows the number the header shows (the contract's, when its field holds none).
  const shownValues = fields ? withContractNumber(fields, contract.formValues, contract.contractNumber) : contract.formValues;
  const [values, setValues] = useState<Readonly<Record<string, unknown>>>(shownValues);
  const [reason, setReason] = useState('');
  const [reasonMessage, setReasonMessage] = useState<string | null>(null);
  const [scoring, setScoring] = useState(false);
  const [saveForm, saveState] = useSaveContractFormMutation();
  const [alter, alterState] = useAlterContractMutation();
  const [dismissRefusal, dismissing] = useDismissProblemMutation();
  const [discarding, setDiscarding] = useState(false);
  const saveFailed = useSaveFailure();
  const actionFailed = useActionFailure();
  // A refused draft or save reopens as the user sent it, with the server's reason on its fields.
  const refusal = contract.refusal;
  const startValues = fields && refusal ? refusedFormValues(fields, contract, refusal) : shownValues;
  const refused = fields && refusal ? refusedFields(t, fields, startValues, refusal) : undefined;

  const tab = tabFromQuery(query);
  const selectTab = (next: ContractPageTab) => setQuery(queryWithTab(query, next), { replace: true });

  // Editing starts from the contract as it is now (a sync may have changed it since the page
  // opened), on the tab that holds the form.
  const enter = (next: PageMode) => {
    setValues(next === 'edit' ? startValues : shownValues);
    setReason('');
    setReasonMessage(null);
    setMode(next);
    if (next !== 'view') selectTab('BASIC_TAB');
  };
  const leave = () => enter('view');

  const actions = mode === 'view' && (
    <>
      {fields && isEditableStatus(contract.status) && <Button icon="edit" data-testid="contract-edit" text={t('contracts.edit')} onClick={() => enter('edit')} />}
      {fields && contract.status === ContractStatus.Approved && !contract.archivePending && (
        <Button icon="changes" data-testid="contract-alter" text={t('contracts.alter')} onClick={() => enter('alter')} />
      )}
      {approvalActions?.(contract)}
      <ArchiveAction contract={contract} />
      {/* The server scores a contract's external counterparty: with none, there is nothing to score. */}
      {contract.counterpartName !== null && (
        <Button icon="star" data-testid="contract-score" text={t('contractPage.scoreCounterparty')} onClick={() => setScoring(true)} />
      )}
    </>
  );

  let body: ReactNode;
  if (contract.templateId && !template && !templateError) {
    body = <ScreenState error={undefined} title={t('contracts.templateLoadFailed')} />;
  } else {
    const nameField = contractNameField(formFields);

    const save = async () => {
      try {
        const formValues = withoutShownNumber(formFields, await formRef.current!.submit(), contract.contractNumber);
        const typedName = nameField ? formValues[nameField.id] : contract.name;
        const contractNumber = typedContractNumber(formFields, formValues);
        await saveForm({
          id: contract.id,
          name: typeof typedName === 'string' ? typedName.trim() : contract.name,
          contractTypeId: contractTypeOf(formFields, formValues, contract.contractTypeId),
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
        const changed = changedValues(formFields, shownValues, formValues);
        if (Object.keys(changed).length === 0) return showFailure(t('contracts.nothingChanged'));
        await alter({ id: contract.id, formValues: changed, reason: reason.trim() }).unwrap();
        showNotice(t('contracts.altered'));
        leave();
      } catch (cause) {
        saveFailed(cause);
      }
    };

    const panels: Record<ContractPageTab, ReactElement> = {
      BASIC_TAB: (
        <div className="contract-page__panel">
          {mode === 'alter' && <H4>{t('contracts.alterationTitle')}</H4>}
          {!fields && (
            <Callout intent="warning" icon="offline" title={t('contractPage.formUnavailable')} data-testid="contract-form-unavailable">
              {templateError ? errorText(t, templateError) : t('contracts.templateLoadFailed')}
            </Callout>
          )}
          {fields?.length === 0 && (
            <div data-testid="contract-no-form">
              <NonIdealState icon="document" title={t('contractPage.noForm')} />
            </div>
          )}
          <DraftForm
            services={services}
            fields={formFields}
            clauses={template?.clauses ?? []}
            contractId={contract.id}
            contractTypeId={contract.contractTypeId}
            formRef={formRef}
            mode={mode === 'view' ? 'preview' : 'edit'}
            alteration={mode === 'alter'}
            values={mode === 'view' ? shownValues : values}
            onValuesChange={setValues}
            {...(mode === 'edit' && refused && { refused })}
          />
          {mode === 'alter' && <AlterationReason value={reason} error={reasonMessage} onChange={setReason} />}
          {mode !== 'view' && (
            <div className="contract-draft__actions">
              {mode === 'edit' ? (
                <Button intent="primary" icon="floppy-disk" loading={saveState.isLoading} data-testid="contract-save" text={t('contracts.save')} onClick={() => void save()} />
              ) : (
                <Button intent="primary" icon="floppy-disk" loading={alterState.isLoading} data-testid="alteration-save" text={t('contracts.save')} onClick={() => void saveAlteration()} />
              )}
              <Button data-testid="contract-cancel" text={t('contracts.cancel')} onClick={leave} />
            </div>
          )}
        </div>
      ),
      PERFORMANCE_TAB: (
        <>
          <QuickTaskButton contract={{ id: contract.id, name: contract.name }} />
          <PerformanceTab contractId={contract.id} services={services} contractForm={{ fields: formFields, values: contract.formValues }} />
        </>
      ),
      ATTACHMENT_TAB: (
        <>
          <ContractAttachments fields={formFields} values={contract.formValues} services={services} />
          {contract.status === ContractStatus.Archived && (
            <div className="archive-panel" data-testid="contract-archive">
              <ArchivedPdf contractId={contract.id} />
            </div>
          )}
        </>
      ),
      COOPERATION_TAB: <CooperationSection contractId={contract.id} mode={mode === 'view' ? 'preview' : 'edit'} services={services} />,
      HISTORY_TAB: <ContractHistory contract={contract} />,
      DOCUMENT_TAB: (
        <ContractDocumentTab
          contractId={contract.id}
          revision={`${contract.version}:${contract.updateTime}:${contract.contractNumber ?? ''}`}
          hasDocument={Boolean(template?.document)}
          active={tab === 'DOCUMENT_TAB'}
        />
      ),
    };

    // Every panel stays mounted (the inactive ones hidden), so a form being edited keeps its state.
    body = (
      <Tabs id="contract-page-tabs" className="contract-page__tabs" animate={false} selectedTabId={tab} onChange={(id) => selectTab(id as ContractPageTab)}>
        {contractPageTabs.map((entry) => (
          <Tab key={entry.id} id={entry.id} data-testid={`contract-tab-${entry.id}`} title={t(`contractPage.tabs.${entry.label}`)} panel={panels[entry.id]} />
        ))}
      </Tabs>
    );
  }

  const discard = () =>
    refusal &&
    dismissRefusal({ id: refusal.id })
      .unwrap()
      .then(() => setDiscarding(false))
      .catch(actionFailed);

  return (
    <section className="contract-screen" data-testid="contract-detail" data-mode={mode}>
      <ContractHeader contract={contract} actions={actions} />
      {refusal && (
        <Callout intent="danger" icon="error" className="contract-page__refusal" data-testid="contract-refusal" title={t(`contractPage.refusal.${refusal.kind}Title`)}>
          <p>{refusal.error ? errorText(t, refusal.error) : t('sync.rejected')}</p>
          <p>{t(`contractPage.refusal.${refusal.kind}Hint`)}</p>
          {mode === 'view' && (
            <Button intent="danger" icon="trash" data-testid="contract-refusal-discard" text={t(`contractPage.refusal.${refusal.kind}Discard`)} onClick={() => setDiscarding(true)} />
          )}
        </Callout>
      )}
      <RefusalDiscardAlert kind={refusal?.kind ?? 'update'} isOpen={discarding} loading={dismissing.isLoading} onCancel={() => setDiscarding(false)} onConfirm={() => void discard()} />
      {body}
      {scoring && <ContractScoreDialog contractId={contract.id} onClose={() => setScoring(false)} />}
    </section>
  );
}

/**
 * The contract page (UI.md): /standingBook/detail?contractId=…&mode=contract (a new tab from the
 * ledger) or ?id=… (pushed in place), /myContract/detail?contractId=… and
 * /contractApproval/detail?id=…: the contract from the replica, its header and tabs; edit while
 * drafting or rejected (saved through 'contract.saveForm'), alter once approved ('contract.alter').
 */
export function ContractPage(props: ContractPageProps) {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const id = query.get('contractId') ?? query.get('id');
  const { services, error: servicesError } = useBridgeFormServices();
  const { data: contract, error } = useContractDetailQuery(id ?? skipToken);
  if (id === null) return <ScreenState error={{ code: 'not_found', message: defaultErrorMessages.not_found }} title={t('contracts.loadFailed')} />;
  if (!contract || !services) return <ScreenState error={error ?? servicesError} title={t('contracts.loadFailed')} />;
  return <ContractPageBody key={contract.id} contract={contract} services={services} {...props} />;
}
