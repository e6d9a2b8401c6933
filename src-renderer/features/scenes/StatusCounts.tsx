import { Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { contractStatuses, contractStatusStatisticsKey } from '../../../src-shared/domain/enums';
import { useContractStatisticsQuery } from '../../api/api';

// The ledger header's contract status counts (spec 2): all, then each status, from the replica's kept counts.
export function StatusCounts() {
  const { t } = useTranslation();
  const { data: statistics } = useContractStatisticsQuery();
  if (!statistics) return null;
  const counts = [
    { key: 'all' as const, count: statistics.total },
    ...contractStatuses.map((status) => ({ key: contractStatusStatisticsKey[status], count: statistics[contractStatusStatisticsKey[status]] })),
  ];
  return (
    <div className="scene-ledger__counts" aria-label={t('scenes.statusCounts')} data-testid="scene-status-counts">
      {counts.map(({ key, count }) => (
        <Tag key={key} minimal round data-testid={`scene-count-${key}`}>
          {t(`ledger.statusTabs.${key}`)} {count}
        </Tag>
      ))}
    </div>
  );
}
