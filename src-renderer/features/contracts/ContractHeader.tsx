import { H2, Tag, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { ContractStatusCell } from '../ledger/ContractStatusCell';

/** The contract's name, number (with the provisional badge until the server confirms it) and status. */
export function ContractHeader({ contract }: { contract: ReplicaContractDetail }) {
  const { t } = useTranslation();
  return (
    <header className="contract-header">
      <H2 data-testid="contract-detail-name">{contract.name}</H2>
      <div className="contract-header__facts">
        <span>
          {t('contracts.number')}: <span data-testid="contract-detail-number">{contract.contractNumber ?? t('contractStatus.missing')}</span>
        </span>
        {contract.numberProvisional && (
          <Tooltip content={t('contracts.provisionalNumberHint')}>
            <Tag intent="warning" icon="time" data-testid="contract-number-provisional">
              {t('contracts.provisionalNumber')}
            </Tag>
          </Tooltip>
        )}
        {contract.pending && (
          <Tag minimal icon="cloud-upload" data-testid="contract-pending">
            {t('contracts.pending')}
          </Tag>
        )}
        <span>
          {t('contracts.status')}: <ContractStatusCell status={contract.status} />
        </span>
      </div>
    </header>
  );
}
