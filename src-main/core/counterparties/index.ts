import type { z } from 'zod';
import { counterpartyListRowSchema } from '../../../src-shared/api/counterparties';
import type { counterpartyListAnswerSchema, counterpartyListRequestSchema, CounterpartyRow } from '../../../src-shared/ipc/counterparties';
import { draftingStore } from '../contracts/drafting-store';
import { cachedReadStore } from '../data/cached-reads';
import type { CoreFeature, FeatureHost } from '../feature';
import { isServerAway, onlineCall } from '../session/online-call';
import { AppFailure } from '../../../src-shared/errors';

// The counterparty lists (issue 15). One store of counterparties: the party pickers' kept list
// (catalogue_counterparties) holds who they are, and each one's list row as last read is kept
// beside it (cached_reads, kind 'counterpartyRow'), so the lists search and page offline too.

export const counterpartyRowKind = 'counterpartyRow';

export function createCounterpartiesFeature(host: FeatureHost): CoreFeature<'counterparties.list'> {
  async function list(request: z.output<typeof counterpartyListRequestSchema>): Promise<z.infer<typeof counterpartyListAnswerSchema>> {
    const session = host.signedIn();
    const parties = draftingStore(session.replica, session.user.id);
    const rows = cachedReadStore(session.replica.db, session.user.id);
    try {
      const page = await onlineCall(session, 'counterpartyList', {
        query: { type: request.type, pageNum: request.pageNum, pageSize: request.pageSize, ...(request.q ? { q: request.q } : {}) },
      });
      const asOf = host.clock.now().toISOString();
      session.replica.db.transaction(() => {
        parties.keepParties(page.list.map((row) => ({ id: row.id, name: row.name, partyType: row.type, creditCode: row.idNumber })));
        for (const row of page.list) rows.write(counterpartyRowKind, row.id, row, asOf);
      });
      return { value: page, asOf, offline: false };
    } catch (cause) {
      if (!isServerAway(cause)) throw cause;
      const kept = parties.searchParties({ keyword: request.q, partyType: request.type, pageNum: request.pageNum, pageSize: request.pageSize });
      const refreshedAt = parties.catalogue().refreshedAt;
      if (refreshedAt === null && kept.count === 0) throw new AppFailure('offline');
      const times: string[] = refreshedAt ? [refreshedAt] : [];
      const list = kept.list.map((party): CounterpartyRow => {
        const row = rows.read(counterpartyRowKind, party.id, counterpartyListRowSchema);
        if (row) {
          times.push(row.fetchedAt);
          return row.value;
        }
        // Kept by the pickers only: who it is, without the figures the list shows when online.
        return { id: party.id, type: party.partyType, subtype: null, name: party.name, idNumber: party.creditCode, address: null, bank: null, account: null, updaterName: null, updateTime: null, rating: null, cooperationCount: null, totalAmount: null, averageScore: null, riskCount: null };
      });
      // The oldest of what is shown: the page is at least as fresh as that.
      const asOf = times.sort()[0] ?? host.clock.now().toISOString();
      return { value: { list, count: kept.count }, asOf, offline: true };
    }
  }
  return { handlers: { 'counterparties.list': list } };
}
