import { Button, Dialog, DialogBody, DialogFooter, InputGroup, PopoverNext } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { DraftingCatalogue } from '../../../../../../src-shared/ipc/drafting';
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
import { duplicateResultSchema } from '../../../../../../src-shared/form/field-config';
import { formMessage, type FormMessage } from '../../../../../../src-shared/form/messages';
import { fieldInputId } from '../../../ids';
import type { FieldProps } from '../../../types';
import { callFailureText, formMessageText, isOfflineFailure, useContractId, useFormServices } from '../services';

// The contract number (spec 2 "Dialogs", spec 4 "Contract number", spec 5): typed by number
// editors or when no automatic rule applies, otherwise given by the rules the popover previews;
// the duplicate check opens the duplicate-number dialog.

/** The signed-in user, as the catalogue knows them: on the editors list or not. */
const self = 'self';

export function numberContext(catalogue: DraftingCatalogue): ContractNumberContext {
  return { userId: self, editors: catalogue.isNumberEditor ? [self] : [], automatic: catalogue.numberingPreview.length > 0 };
}

const duplicateResultsSchema = z.object({ list: z.array(duplicateResultSchema) });

function checkQuery(request: DuplicateCheckRequest, excludeId: string | null): Record<string, string> {
  const base: Record<string, string> = 'checkAll' in request ? { checkAll: 'true' } : { contractNumber: request.contractNumber };
  return excludeId ? { ...base, excludeId } : base;
}

export function ContractNumberField({ field, value, mode, onChange, onBlur }: FieldProps<string>) {
  const { t } = useTranslation();
  const services = useFormServices();
  const contractId = useContractId();
  const context = numberContext(services.catalogue);
  const editable = mode === 'edit' && canEditContractNumber(context);
  const [message, setMessage] = useState<FormMessage | string | null>(null);
  const [dialog, setDialog] = useState<DuplicateDialog | null>(null);
  const [checking, setChecking] = useState(false);

  function check(request: DuplicateCheckRequest) {
    setMessage(null);
    setChecking(true);
    services.onlineCall('contractNumberCheckDuplicate', { query: checkQuery(request, contractId) }).then(
      (answer) => {
        setChecking(false);
        const parsed = duplicateResultsSchema.safeParse(answer);
        if (parsed.success) setDialog(duplicateDialog(request, parsed.data.list));
        else setMessage(formMessage('noData'));
      },
      (failure: unknown) => {
        setChecking(false);
        // Offline the check cannot run: say when it will, instead of a bare connection error.
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
        placeholder={context.automatic ? t('contractFormComplex.contractNumber.automatic') : field.placeholder}
        maxLength={field.maxlength}
        onValueChange={(text) => onChange(text === '' ? undefined : text)}
        onBlur={onBlur}
      />
      {showsNumberingRulePreview(context) && (
        <PopoverNext
          content={
            <div className="contract-number__rules" style={{ width: numberingRulePopoverWidth }}>
              <h5>{t('contractFormComplex.contractNumber.rulePreview')}</h5>
              <ul>
                {services.catalogue.numberingPreview.map((rule) => (
                  <li key={rule.id}>{rule.format}</li>
                ))}
              </ul>
            </div>
          }
        >
          <Button variant="minimal" icon="info-sign" text={t('contractFormComplex.contractNumber.rulePreview')} />
        </PopoverNext>
      )}
      {mode === 'edit' && (
        <>
          <Button variant="minimal" loading={checking} text={t('contractFormComplex.contractNumber.checkDuplicate')} onClick={checkOne} />
          <Button variant="minimal" disabled={checking} text={t('contractFormComplex.contractNumber.checkAll')} onClick={() => check({ checkAll: true })} />
        </>
      )}
      {shown && <p className="form-field__error" role="alert">{shown}</p>}
      {dialog && <DuplicateNumberDialog dialog={dialog} onClose={() => setDialog(null)} />}
    </div>
  );
}

/** Titles 'no duplicates found yet', 'view all duplicate numbers' or 'this number duplicates…'; 'I know' closes. */
export function DuplicateNumberDialog({ dialog, onClose }: { dialog: DuplicateDialog; onClose: () => void }) {
  const { t } = useTranslation();
  const services = useFormServices();
  return (
    <Dialog isOpen onClose={onClose} title={t(`form.${dialog.title}`)}>
      <DialogBody>
        {dialog.entries.map((entry) => (
          <section key={entry.contractNumber}>
            <h5>{entry.contractNumber}</h5>
            <ul>
              {entry.contractList.map((contract) => (
                <li key={contract.id}>
                  {contract.name}{' '}
                  <a role="button" tabIndex={0} onClick={() => services.openRoute(duplicateContractLink(contract.id), { newWindow: true })}>
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
