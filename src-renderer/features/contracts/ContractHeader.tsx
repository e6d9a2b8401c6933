import { H2, Tag, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../src-shared/domain/money';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { ContractStatusCell } from '../ledger/ContractStatusCell';

/** The contract's name, number (with the provisional badge until the server confirms it), status, counterparty and amount. */
export function ContractHeader({ contract }: { contract: ReplicaContractDetail }) {
  const { t } = useTranslation();
  const missing = t('contractStatus.missing');
  return (
    <header className="contract-header">
      <H2 data-testid="contract-detail-name">{contract.name}</H2>
      <div className="contract-header__facts">
        <span>
          {t('contracts.number')}: <span data-testid="contract-detail-number">{contract.contractNumber ?? missing}</span>
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
        <span>
          {t('ledger.columns.counterpartName')}: <span data-testid="contract-detail-counterparty">{contract.counterpartName ?? missing}</span>
        </span>
        <span>
          {t('ledger.columns.amount')}: <span data-testid="contract-detail-amount">{contract.amount ? formatMoney(contract.amount) : missing}</span>
        </span>
      </div>
    </header>
  );
}
