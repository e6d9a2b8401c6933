import { pruneExpiredAuditEvents } from './audit/chain';
import { pruneLoginThrottles } from './auth/throttle';
import type { ServerDb } from './db/database';
import { idempotencyKeyRetentionDays, pruneIdempotencyKeys } from './http/write-safety';
import { removeExpiredUploads } from './files/uploads';
import { compactLedgerTaskTotals } from './ledger/totals';

// Housekeeping a running server does by itself, at start and then at an interval, so that
// tables which only grow between clean-ups stay small without an outside job.

export const maintenanceIntervalMs = 10 * 60 * 1000;

/** One round of housekeeping; each task is independent, so one failing does not stop the others. */
/** `filesDir`: where uploads live, so that expired ones are removed with their bytes. */
export async function runMaintenance(db: ServerDb, warn: (message: string) => void, now = new Date(), filesDir?: string): Promise<void> {
  const day = 24 * 60 * 60 * 1000;
  const tasks: [string, () => Promise<void>][] = [
    ['folding ledger_task_totals', () => compactLedgerTaskTotals(db)],
    ['pruning idempotency_keys', () => pruneIdempotencyKeys(db, new Date(now.getTime() - idempotencyKeyRetentionDays * day))],
    ['pruning login_throttles', () => pruneLoginThrottles(db, now)],
    ['pruning audit_events past their retention', () => pruneExpiredAuditEvents(db, now)],
    ...(filesDir === undefined ? [] : [['removing expired file_uploads', async () => void (await removeExpiredUploads(db, filesDir, now))] as [string, () => Promise<void>]]),
  ];
  for (const [name, task] of tasks) {
    await task().catch((error: unknown) => warn(`maintenance: ${name} failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/** Runs the housekeeping now and every `intervalMs`; the returned function stops it and waits for a round under way. */
export function startMaintenance(db: ServerDb, warn: (message: string) => void, intervalMs = maintenanceIntervalMs, filesDir?: string): () => Promise<void> {
  let running = runMaintenance(db, warn, new Date(), filesDir);
  const timer = setInterval(() => {
    running = running.then(() => runMaintenance(db, warn, new Date(), filesDir));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
