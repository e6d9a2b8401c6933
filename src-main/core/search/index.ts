import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CoreFeature, FeatureHost } from '../feature';
import { perSession } from '../session/session-service';
import { fullTextSearch } from './full-text';
import { searchIndexBuilder } from './index-builder';

// The local full-text search (issue 14): answered from the replica's FTS5 index, so it works offline.

export type SearchChannel = 'search.fullText';

/** Contracts indexed per step of the build after a first sync: about 0.1 s of work, then other calls run. */
const indexStep = 500;

export function createSearchFeature(host: FeatureHost): CoreFeature<SearchChannel> {
  // One searcher per session, over that session's replica.
  const searchOf = perSession((session) => fullTextSearch(session.replica.sqlite));
  let stopBuilding: (() => void) | null = null;
  return {
    start(session) {
      const builder = searchIndexBuilder(session.replica.sqlite);
      let stopped = false;
      let building: Promise<void> | null = null;
      // Indexes what a first sync left to it, a step per turn of the event loop.
      const build = () => {
        building ??= (async () => {
          let indexed = 0;
          for (let step = builder.step(indexStep); step > 0 && !stopped; step = builder.step(indexStep)) {
            indexed += step;
            await nextTurn();
          }
          if (indexed > 0 && !stopped) builder.finish();
        })()
          .catch((cause: unknown) => host.logger.warn('could not build the full-text index', String(cause)))
          .finally(() => {
            building = null;
          });
      };
      const unsubscribe = host.hub.subscribe((event, payload) => {
        if (event === 'sync.statusChanged' && (payload as { phase?: string }).phase === 'idle' && !builder.deferred()) build();
      });
      stopBuilding = () => {
        stopped = true;
        unsubscribe();
      };
      build();
    },
    stop() {
      stopBuilding?.();
      stopBuilding = null;
    },
    handlers: {
      'search.fullText': (request) => searchOf(host.signedIn()).search(request),
    },
  };
}
