import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Contract } from '../../../src-shared/domain/contract';
import { isEditableStatus } from '../../../src-shared/rules/contract-status';
import { useUpdateContractMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';

/**
 * The first write of the UI: a contract's name, edited in place. The core saves it on this device
 * at once (the ledger shows it) and sync sends it to the server. The name changes only while the
 * contract is a draft or rejected; its status moves only by the approval steps of the contract page.
 */
export function ContractEditDialog({ contract, onClose }: { contract: Contract; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(contract.name);
  const [update, { isLoading }] = useUpdateContractMutation();
  const onFailure = useActionFailure();
  const nameEditable = isEditableStatus(contract.status);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!nameEditable || name.trim() === contract.name) return onClose();
    void update({ id: contract.id, patch: { name: name.trim() } })
      .unwrap()
      .then(onClose, onFailure);
  }

  return (
    <Dialog isOpen onClose={onClose} title={t('contractEdit.title')} data-testid="contract-edit">
      <form onSubmit={submit}>
        <DialogBody>
          <FormGroup label={t('contractEdit.name')} labelFor="contract-edit-name">
            <InputGroup
              id="contract-edit-name"
              data-testid="contract-edit-name"
              value={name}
              maxLength={200}
              autoFocus={nameEditable}
              disabled={!nameEditable}
              onValueChange={setName}
            />
          </FormGroup>
          {!nameEditable && <p className="contract-edit__note" data-testid="contract-edit-locked">{t('contractEdit.lockedAfterApproval')}</p>}
          <p className="contract-edit__note">{t('contractEdit.savedOffline')}</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button data-testid="contract-edit-cancel" text={nameEditable ? t('contractEdit.cancel') : t('contractEdit.close')} onClick={onClose} />
              {nameEditable && (
                <Button type="submit" intent="primary" data-testid="contract-edit-save" loading={isLoading} disabled={name.trim() === ''} text={t('contractEdit.save')} />
              )}
            </>
          }
        />
      </form>
    </Dialog>
  );
}
