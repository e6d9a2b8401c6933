import { Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ContractStatistics } from '../../../src-shared/domain/contract';
import { contractStatuses, contractStatusStatisticsKey, type ContractStatus } from '../../../src-shared/domain/enums';

/** 'all' (the total), then one tab per contract status, each counted by its statistics key. */
const statusTabs = [
  { id: 'all', status: null, key: 'all', countKey: 'total' },
  ...contractStatuses.map((status) => ({
    id: status,
    status,
    key: contractStatusStatisticsKey[status],
    countKey: contractStatusStatisticsKey[status],
  })),
] as const satisfies readonly {
  id: 'all' | ContractStatus;
  status: ContractStatus | null;
  key: string;
  countKey: keyof ContractStatistics;
}[];

interface StatusTabsProps {
  selected: ContractStatus | null;
  /** Undefined until the counts have been read: the tabs then show no numbers. */
  statistics: ContractStatistics | undefined;
  onChange(status: ContractStatus | null): void;
}

export function StatusTabs({ selected, statistics, onChange }: StatusTabsProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      id="ledger-status"
      size="large"
      // The underline follows the selected tab by CSS: a moving indicator measured before the
      // bundled CJK font loads would stay where the fallback font put the tab.
      animate={false}
      selectedTabId={selected ?? 'all'}
      onChange={(id) => onChange(statusTabs.find((tab) => tab.id === id)?.status ?? null)}
    >
      {statusTabs.map((tab) => (
        <Tab
          key={tab.id}
          id={tab.id}
          data-testid={`ledger-tab-${tab.id}`}
          title={t(`ledger.statusTabs.${tab.key}`)}
          tagContent={statistics && <span data-testid={`ledger-count-${tab.id}`}>{statistics[tab.countKey]}</span>}
          tagProps={{ round: true }}
        />
      ))}
    </Tabs>
  );
}
