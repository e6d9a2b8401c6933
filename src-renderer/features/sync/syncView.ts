import type { SyncStatus } from '../../../src-shared/ipc/channels';

export type SyncLabelKey = 'sync.online' | 'sync.offline' | 'sync.pushing' | 'sync.pulling' | 'sync.paused' | 'sync.error';

export interface SyncView {
  online: boolean;
  labelKey: SyncLabelKey;
  intent: 'success' | 'primary' | 'warning' | 'danger' | 'none';
  /** Set while a pull runs and the server has said how much remains. */
  progress: { pulled: number; total: number } | null;
}

/** The first-sync progress bar: shown while a pull from nothing runs and its size is known. */
export function firstSyncProgress(status: SyncStatus | undefined): { pulled: number; total: number; fraction: number } | null {
  if (!status?.firstSync || status.phase !== 'pulling' || status.remaining === null) return null;
  const total = status.pulled + status.remaining;
  return { pulled: status.pulled, total, fraction: total === 0 ? 1 : status.pulled / total };
}

/** What the navbar indicator shows for a sync status (undefined: not known yet). */
export function syncView(status: SyncStatus | undefined): SyncView {
  if (!status) return { online: false, labelKey: 'sync.offline', intent: 'none', progress: null };
  const { online, phase, pulled, remaining } = status;
  // A pause needs the user (sign in again), so it wins; then being offline explains any failure.
  if (phase === 'paused') return { online, labelKey: 'sync.paused', intent: 'warning', progress: null };
  if (!online || phase === 'offline') return { online: false, labelKey: 'sync.offline', intent: 'none', progress: null };
  if (phase === 'pulling') {
    const progress = remaining === null ? null : { pulled, total: pulled + remaining };
    return { online, labelKey: 'sync.pulling', intent: 'primary', progress };
  }
  if (phase === 'pushing') return { online, labelKey: 'sync.pushing', intent: 'primary', progress: null };
  if (phase === 'error') return { online, labelKey: 'sync.error', intent: 'danger', progress: null };
  return { online, labelKey: 'sync.online', intent: 'success', progress: null };
}
