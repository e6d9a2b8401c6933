import type { CoreFeature, FeatureHost } from '../feature';
import { perSession } from '../session/session-service';
import { contractReader } from './contract-ledger';

// The ledger (spec 2): its pages and status counts, read from the replica so it works offline.

export type LedgerChannel = 'ledger.contractStatistics' | 'ledger.contractPage';

export function createLedgerFeature(host: FeatureHost): CoreFeature<LedgerChannel> {
  // One reader per session: it keeps its prepared statements.
  const readerOf = perSession((session) => contractReader(session.replica));
  return {
    handlers: {
      'ledger.contractStatistics': () => readerOf(host.signedIn()).statistics(),
      'ledger.contractPage': (query) => readerOf(host.signedIn()).page(query),
    },
  };
}
