import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Contract } from '../../../src-shared/domain/contract';
import type { ContractStatus } from '../../../src-shared/domain/enums';
import { directStatusSteps, isEditableStatus } from '../../../src-shared/rules/contract-status';
import { useSessionQuery, useUpdateContractMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';

/**
 * The first write of the UI: a contract's name and status, edited in place. The core saves it
 * on this device at once (the ledger shows it) and sync sends it to the server. It offers only
 * what the server accepts: the name while the contract is a draft or rejected, and a status one
 * approval step away that the user may take.
 */
export function ContractEditDialog({ contract, onClose }: { contract: Contract; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(contract.name);
  const [status, setStatus] = useState<ContractStatus | null>(contract.status);
  const [update, { isLoading }] = useUpdateContractMutation();
  const onFailure = useActionFailure();
  const labels = t('contractStatus', { returnObjects: true });
  const { data: session } = useSessionQuery();
  const role = session?.signedIn ? session.user.role : 'staff';
  const nameEditable = isEditableStatus(contract.status);
  const statusChoices = [contract.status, ...directStatusSteps(contract.status, role)];
  // Nothing to change (an approved contract: its name is locked and no step is open) → no Save; alteration is the contract page's action.
  const editable = nameEditable || statusChoices.length > 1;

  function submit(event: FormEvent) {
    event.preventDefault();
    const patch = {
      ...(name.trim() !== contract.name && { name: name.trim() }),
      ...(status !== null && status !== contract.status && { status }),
    };
    if (Object.keys(patch).length === 0) return onClose();
    void update({ id: contract.id, patch })
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
          <FormGroup label={t('contractEdit.status')} labelFor="contract-edit-status">
            <HTMLSelect
              id="contract-edit-status"
              data-testid="contract-edit-status"
              value={status ?? ''}
              onChange={(event) => setStatus(Number(event.currentTarget.value) as ContractStatus)}
              disabled={statusChoices.length === 1}
              options={statusChoices.map((s) => (s === null ? { value: '', label: labels.missing } : { value: s, label: labels[s] }))}
            />
          </FormGroup>
          <p className="contract-edit__note">{t('contractEdit.savedOffline')}</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button data-testid="contract-edit-cancel" text={editable ? t('contractEdit.cancel') : t('contractEdit.close')} onClick={onClose} />
              {editable && (
                <Button type="submit" intent="primary" data-testid="contract-edit-save" loading={isLoading} disabled={name.trim() === ''} text={t('contractEdit.save')} />
              )}
            </>
          }
        />
      </form>
    </Dialog>
  );
}
