import { Button, Dialog, DialogBody, DialogFooter, InputGroup, PopoverNext } from '@blueprintjs/core';
import { useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RuleScope } from '../../../../../../src-shared/domain/enums';
import type { PreviewRule } from '../../../../../../src-shared/domain/numbering';
import type { DraftingCatalogue, DuplicateCheckAnswer } from '../../../../../../src-shared/ipc/drafting';
import { contractTypeOf } from '../../../../../../src-shared/rules/contract-terms';
import { catalogueRuleFor } from '../../../../../../src-shared/rules/numbering-scope';
import {
  canEditContractNumber,
  duplicateCheckRequest,
  duplicateContractLink,
  duplicateDialog,
  numberingRulePopoverWidth,
  showsNumberingRulePreview,
  type ContractNumberContext,
  type DuplicateCheckRequest,
  type DuplicateDialog,
} from '../../../../../../src-shared/form/contract-number';
import type { ChannelRequest } from '../../../../../../src-shared/ipc/channels';
import { AsOfNote } from '../../../../cached-reads/AsOfNote';
import { type FormMessage } from '../../../../../../src-shared/form/messages';
import { FormServicesContext } from '../../../FormServicesContext';
import { useContractFormContext } from '../../../formContext';
import { fieldInputId } from '../../../ids';
import type { FieldProps } from '../../../types';
import { callFailureText, formMessageText, isOfflineFailure, useContractId, useContractTypeId, useFormServices } from '../services';

// The contract number (spec 2 "Dialogs", spec 4 "Contract number", spec 5): typed by number
// editors or when no automatic rule applies to this contract, otherwise given by the rule that
// applies (its type's, its initiator's department's, else the default: the shared choice of
// src-shared/rules/numbering-scope.ts, from the catalogue kept for offline use), which the
// placeholder and the popover preview; the duplicate check opens the duplicate-number dialog.

/** The signed-in user, as the catalogue knows them: on the editors list or not. */
const self = 'self';

function numberContext(catalogue: DraftingCatalogue, rule: PreviewRule | undefined): ContractNumberContext {
  return { userId: self, editors: catalogue.isNumberEditor ? [self] : [], automatic: rule !== undefined };
}

/** What the rule is for, in the popover: the contract type, the initiator's department, or the default rule. */
function RuleTarget({ rule, catalogue }: { rule: PreviewRule; catalogue: DraftingCatalogue }) {
  const { t } = useTranslation();
  if (rule.conditionType === RuleScope.ContractType) {
    const type = catalogue.contractTypes.find((candidate) => candidate.id === rule.values[0]);
    return <p>{t('contractFormComplex.contractNumber.ruleForType', { type: type?.name ?? '--' })}</p>;
  }
  return <p>{t(rule.conditionType === RuleScope.Default ? 'contractFormComplex.contractNumber.ruleDefault' : 'contractFormComplex.contractNumber.ruleForDepartment')}</p>;
}

function checkQuery(request: DuplicateCheckRequest, excludeId: string | null): ChannelRequest<'drafting.checkDuplicate'> {
  const base = 'checkAll' in request ? { checkAll: 'true' as const } : { contractNumber: request.contractNumber };
  return excludeId ? { ...base, excludeId } : base;
}

export function ContractNumberField({ field, value, values, mode, onChange, onBlur }: FieldProps<string>) {
  const { t } = useTranslation();
  const services = useFormServices();
  const contractId = useContractId();
  const { fields } = useContractFormContext();
  const rule = catalogueRuleFor(services.catalogue.numberingPreview, contractTypeOf(fields, values, useContractTypeId()));
  const context = numberContext(services.catalogue, rule);
  const editable = mode === 'edit' && canEditContractNumber(context);
  const [message, setMessage] = useState<FormMessage | string | null>(null);
  const [dialog, setDialog] = useState<{ dialog: DuplicateDialog; answer: DuplicateCheckAnswer } | null>(null);
  const [checking, setChecking] = useState(false);

  function check(request: DuplicateCheckRequest) {
    setMessage(null);
    setChecking(true);
    services.checkDuplicate(checkQuery(request, contractId)).then(
      (answer) => {
        setChecking(false);
        setDialog({ dialog: duplicateDialog(request, answer.value.list), answer });
      },
      (failure: unknown) => {
        setChecking(false);
        // Offline and never synced, the check has nothing to run on: say when it will, instead of a bare connection error.
        setMessage(isOfflineFailure(failure) ? t('contractFormComplex.contractNumber.checkWhenOnline') : callFailureText(t, failure));
      },
    );
  }

  function checkOne() {
    const request = duplicateCheckRequest(value);
    if (!request.ok) return setMessage(request.message);
    check(request.value);
  }

  if (mode === 'preview') return <span data-testid={`contract-number-${field.id}`}>{value || '--'}</span>;

  const shown = message === null ? null : typeof message === 'string' ? message : formMessageText(t, message);
  return (
    <div className="contract-number">
      <InputGroup
        id={fieldInputId(field.id)}
        aria-label={field.name}
        value={value ?? ''}
        disabled={!editable}
        placeholder={rule ? t('contractFormComplex.contractNumber.automaticAs', { number: rule.format }) : field.placeholder}
        maxLength={field.maxlength}
        onValueChange={(text) => onChange(text === '' ? undefined : text)}
        onBlur={onBlur}
      />
      {rule && showsNumberingRulePreview(context) && (
        <PopoverNext
          content={
            <div className="contract-number__rules" style={{ width: numberingRulePopoverWidth }} data-testid="contract-number-rule">
              <h5>{t('contractFormComplex.contractNumber.rulePreview')}</h5>
              <RuleTarget rule={rule} catalogue={services.catalogue} />
              <p>
                {t('contractFormComplex.contractNumber.nextNumber')}: <strong>{rule.format}</strong>
              </p>
            </div>
          }
        >
          <Button variant="minimal" icon="info-sign" text={t('contractFormComplex.contractNumber.rulePreview')} />
        </PopoverNext>
      )}
      {mode === 'edit' && (
        <>
          {/* A number locked to this user and not given yet has nothing to check (never 'please enter the number'). */}
          {(editable || value) && <Button variant="minimal" loading={checking} text={t('contractFormComplex.contractNumber.checkDuplicate')} onClick={checkOne} />}
          <Button variant="minimal" disabled={checking} text={t('contractFormComplex.contractNumber.checkAll')} onClick={() => check({ checkAll: true })} />
        </>
      )}
      {shown && <p className="form-field__error" role="alert">{shown}</p>}
      {dialog && <DuplicateNumberDialog dialog={dialog.dialog} answer={dialog.answer} onClose={() => setDialog(null)} />}
    </div>
  );
}

/**
 * Titles 'no duplicates found yet', 'view all duplicate numbers' or 'this number duplicates…'; 'I know' closes.
 * 'view' opens a listed contract in a new window, or what `onView` opens (a template's editor).
 * An `answer` from the replica says as of when it checked.
 */
export function DuplicateNumberDialog({ dialog, answer, onClose, onView }: { dialog: DuplicateDialog; answer?: DuplicateCheckAnswer; onClose: () => void; onView?: (id: string) => void }) {
  const { t } = useTranslation();
  // The template editor passes its own 'view' and has no form above it (useFormServices would throw there).
  const services = useContext(FormServicesContext);
  const view = onView ?? ((id: string) => services?.openRoute(duplicateContractLink(id), { newWindow: true }));
  return (
    <Dialog isOpen onClose={onClose} title={t(`form.${dialog.title}`)}>
      <DialogBody>
        <AsOfNote answer={answer} testId="duplicate-check-as-of" />
        {dialog.entries.map((entry) => (
          <section key={entry.contractNumber}>
            {/* The numbers and the contracts' (or templates') names are data, in the language they were written. */}
            <h5 data-user-data>{entry.contractNumber}</h5>
            <ul>
              {entry.contractList.map((contract) => (
                <li key={contract.id}>
                  <span data-user-data>{contract.name}</span>{' '}
                  <a role="button" tabIndex={0} onClick={() => view(contract.id)}>
                    {t('form.view')}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text={t(`form.${dialog.confirm}`)} onClick={onClose} />} />
    </Dialog>
  );
}
