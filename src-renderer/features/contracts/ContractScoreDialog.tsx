import { Dialog, DialogBody, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { showNotice } from '../../app/toaster';
import { FormServicesProvider } from '../contract-form';
import { ScoreDialog, scoreDialogWidth } from '../contract-form/fields/complex/parties/ScoreDialog';
import { FormContractProvider } from '../contract-form/fields/complex/services';
import { useBridgeFormServices } from './useBridgeFormServices';

/**
 * The counterparty scoring dialog of one contract, wherever a contract is at hand (the contract
 * page, the ledger): the form's own dialog with the services it reads through. 'Operation
 * successful!' is shown as a notice once saved.
 */
export function ContractScoreDialog({ contractId, onClose }: { contractId: string; onClose(): void }) {
  const { t } = useTranslation();
  const { services } = useBridgeFormServices();
  if (!services) {
    return (
      <Dialog isOpen onClose={onClose} title={t('contractFormComplex.score.title')} style={{ width: scoreDialogWidth }}>
        <DialogBody>
          <Spinner size={20} />
        </DialogBody>
      </Dialog>
    );
  }
  return (
    <FormServicesProvider services={services}>
      <FormContractProvider contractId={contractId}>
        <ScoreDialog onClose={onClose} onSaved={showNotice} />
      </FormContractProvider>
    </FormServicesProvider>
  );
}
