import type { ReactNode } from 'react';
import { H2, Tag, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../src-shared/domain/money';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { formatDay } from '../../i18n/format';
import { ContractStatusCell } from '../ledger/ContractStatusCell';

/**
 * The contract page's header (UI.md): name, number (with the provisional badge until the server
 * confirms it), status, 'archive pending' while an archive taken here waits for the server,
 * 'waiting to sync' while local edits are pending, the key terms at a glance
 * (the values of the contract's ledger row) and the actions this user may take now.
 */
export function ContractHeader({ contract, actions }: { contract: ReplicaContractDetail; actions: ReactNode }) {
  const { t, i18n } = useTranslation();
  const missing = t('contractStatus.missing');
  const terms: { key: keyof Catalog['contractPage']['terms']; value: string | null }[] = [
    { key: 'counterparty', value: contract.counterpartName },
    { key: 'amount', value: contract.amount && formatMoney(contract.amount) },
    { key: 'signDate', value: contract.signDate && formatDay(contract.signDate, i18n.language) },
    { key: 'responsible', value: contract.responsibleUserName },
    { key: 'department', value: contract.departmentName },
    { key: 'template', value: contract.templateName },
  ];
  return (
    <header className="contract-header" data-testid="contract-header">
      <div className="contract-header__title">
        <H2 data-testid="contract-detail-name" data-user-data>{contract.name}</H2>
        <div className="contract-header__actions" role="toolbar" aria-label={t('contractPage.actions')} data-testid="contract-actions">
          {actions}
        </div>
      </div>
      <div className="contract-header__facts">
        <span>
          {t('contracts.number')}: <span data-testid="contract-detail-number" data-user-data>{contract.contractNumber ?? missing}</span>
        </span>
        {contract.numberProvisional && (
          <Tooltip content={t('contracts.provisionalNumberHint')}>
            <Tag intent="warning" icon="time" data-testid="contract-number-provisional">
              {t('contracts.provisionalNumber')}
            </Tag>
          </Tooltip>
        )}
        <ContractStatusCell status={contract.status} />
        {contract.archivePending && (
          <Tooltip content={t('contracts.archivePendingHint')}>
            <Tag intent="primary" minimal icon="archive" data-testid="contract-archive-pending">
              {t('contracts.archivePending')}
            </Tag>
          </Tooltip>
        )}
        {contract.pending && (
          <Tag minimal icon="cloud-upload" data-testid="contract-pending">
            {t('contracts.pending')}
          </Tag>
        )}
      </div>
      <dl className="contract-header__terms" data-testid="contract-terms">
        {terms.map(({ key, value }) => (
          <div key={key} className="contract-header__term" data-testid={`contract-term-${key}`}>
            <dt>{t(`contractPage.terms.${key}`)}</dt>
            <dd data-testid={`contract-detail-${key}`}>{value ?? missing}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}
