import type { ChannelName } from '../../src-shared/ipc/channels';
import type { EventHub } from './events';
import type { ChannelHandlers } from './ipc/dispatch';
import type { Clock, Logger } from './ports';
import type { ActiveSession } from './session/session-service';
import type { SyncService } from './sync/sync-service';
import type { UploadQueue } from './files-transfer/upload-queue';

// What the core gives a feature (src-main/core/<feature>) and what a feature gives back: its own
// typed map of IPC handlers and what it runs while someone is signed in. core.ts composes them.

export interface FeatureHost {
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  /** The signed-in session; `not_signed_in` otherwise. */
  signedIn(): ActiveSession;
  /** The session's sync, through which every edit is queued; `not_signed_in` otherwise. */
  sync(): SyncService;
  /** The session's queued files (kept here until the server has them); `not_signed_in` otherwise. */
  uploads(): UploadQueue;
}

export interface CoreFeature<C extends ChannelName = never> {
  handlers: Pick<ChannelHandlers, C>;
  /** A session opened (its sync is already running). */
  start?(session: ActiveSession): void;
  /** The session closes. */
  stop?(): void;
}
