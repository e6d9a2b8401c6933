import { quickTaskDate } from '../../../src-shared/domain/performance';
import { AppFailure } from '../../../src-shared/errors';
import { rowKey } from '../../../src-shared/sync/mutations';
import type { ClientMutations } from '../data/replica-features';
import { contractsOverlay } from '../data/schema';
import { eq } from 'drizzle-orm';

// The client side of the performance mutations. Neither touches a synced row: a queued quick task
// and queued reminder settings are read from the outbox by the dashboard reader (dashboard-store.ts)
// until the pull brings the server's rows. The shared schema has checked the args already.

export type PerformanceMutation = 'performance.quickTask' | 'performance.reminderSettings';

export const performanceMutations: ClientMutations<PerformanceMutation> = {
  'performance.quickTask': {
    /** As the server: a related contract must be one the user sees (here: in the replica). */
    check({ payload }, { db }) {
      if (payload.relatedID === undefined) return;
      const found = db.select({ id: contractsOverlay.id }).from(contractsOverlay).where(eq(contractsOverlay.id, payload.relatedID)).get();
      if (!found) throw new AppFailure('not_found', 'contract not found');
    },
    apply: () => undefined,
    view: ({ id, payload }) => ({
      row: rowKey('performanceTask', id),
      changes: { name: payload.name, type: payload.type, expirationTime: quickTaskDate(payload.fieldList), ...(payload.level !== undefined && { level: payload.level }) },
      name: payload.name,
    }),
  },
  'performance.reminderSettings': {
    check: () => undefined,
    apply: () => undefined,
    view: ({ settings }) => ({ row: rowKey('reminderSettings', Object.keys(settings).join(',')), changes: settings }),
  },
};
