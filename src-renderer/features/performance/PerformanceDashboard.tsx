import { LedgerScreen } from '../ledger/LedgerScreen';

// The ledger's first tab, 'performance statistics'. Until the dashboard of the fulfilment issue
// lands here, it shows the ledger's contract overview: status tabs with counts, filters, table.
export function PerformanceDashboard() {
  return <LedgerScreen />;
}
