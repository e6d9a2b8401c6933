import { AppFailure } from '../../../src-shared/errors';
import type { CoreFeature, FeatureHost } from '../feature';
import { createArchiveService, type ArchiveService } from './archive-service';

// The contract archive (spec 2): archive with a signed PDF, the PDF kept for offline reading in a
// bounded cache, its text in the full-text index.

export type ArchiveChannel = 'archive.get' | 'archive.confirm' | 'archive.read' | 'archive.cacheUsage';

export interface ArchiveOptions {
  /** The archive cache's bound in bytes (the user's setting). */
  cacheBytes: () => number;
}

export function createArchiveFeature(host: FeatureHost, options: ArchiveOptions): CoreFeature<ArchiveChannel> & { cacheBoundChanged(): void } {
  let archive: ArchiveService | null = null;

  function current(): ArchiveService {
    host.signedIn();
    if (!archive) throw new AppFailure('not_signed_in');
    return archive;
  }

  return {
    start(session) {
      archive = createArchiveService({ session, sync: host.sync, uploads: host.uploads, hub: host.hub, clock: host.clock, logger: host.logger, cacheBytes: options.cacheBytes });
      archive.start();
    },
    stop() {
      archive?.stop();
      archive = null;
    },
    cacheBoundChanged() {
      void archive?.rebound().catch((cause: unknown) => host.logger.warn('could not shrink the archive cache', String(cause)));
    },
    handlers: {
      'archive.get': ({ contractId }) => current().get(contractId),
      'archive.confirm': (request) => current().confirm(request),
      'archive.read': ({ contractId, offset }) => current().read(contractId, offset),
      'archive.cacheUsage': () => current().usage(),
    },
  };
}
