import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CoreFeature, FeatureHost } from '../feature';
import { perSession } from '../session/session-service';
import { fullTextSearch } from './full-text';
import { searchIndexBuilder, type SearchIndexBuilder } from './index-builder';

// The local full-text search (issue 14): answered from the replica's FTS5 index, so it works offline.

export type SearchChannel = 'search.fullText';

/** Contracts indexed per step of the build after a first sync: about 0.1 s of work, then other calls run. */
const indexStep = 500;

interface IndexState {
  builder: SearchIndexBuilder;
  complete: boolean;
}

export function createSearchFeature(host: FeatureHost): CoreFeature<SearchChannel> {
  // One searcher per session, over that session's replica.
  const searchOf = perSession((session) => fullTextSearch(session.replica.sqlite));
  let stopBuilding: (() => void) | null = null;
  // The signed-in replica's builder, and whether its index is known to be whole: until then a
  // search says how far the index is, as its results may miss contracts not yet indexed.
  let index: IndexState | null = null;
  return {
    start(session) {
      const builder = searchIndexBuilder(session.replica.sqlite);
      const state: IndexState = { builder, complete: false };
      index = state;
      let stopped = false;
      let building: Promise<void> | null = null;
      // Indexes what a first sync left to it, a step per turn of the event loop.
      const build = () => {
        building ??= (async () => {
          let indexed = 0;
          for (let step = builder.step(indexStep); step > 0 && !stopped; step = builder.step(indexStep)) {
            // Rows to index: a search says so until they are (a first sync may have come after the last build).
            state.complete = false;
            indexed += step;
            await nextTurn();
          }
          if (stopped) return;
          if (indexed > 0) builder.finish();
          state.complete = !builder.deferred();
        })()
          .catch((cause: unknown) => host.logger.warn('could not build the full-text index', String(cause)))
          .finally(() => {
            building = null;
          });
      };
      const unsubscribe = host.hub.subscribe((event, payload) => {
        if (event !== 'sync.statusChanged') return;
        const status = payload as { phase?: string; firstSync?: boolean };
        // Only a pull from nothing (a first sync, a rebuild, an image) leaves rows to the build; else
        // the triggers keep the index whole, and the build's look at every contract (about 20 ms at
        // 50,000) would follow each edit, as each edit's status ends idle.
        if (status.firstSync) state.complete = false;
        if (status.phase === 'idle' && !state.complete && !builder.deferred()) build();
      });
      stopBuilding = () => {
        stopped = true;
        unsubscribe();
        if (index === state) index = null;
      };
      build();
    },
    stop() {
      stopBuilding?.();
      stopBuilding = null;
    },
    handlers: {
      'search.fullText': (request) => {
        const page = searchOf(host.signedIn()).search(request);
        const state = index;
        // A first sync writing the replica leaves the index to the build after it.
        if (state?.builder.deferred()) state.complete = false;
        const incomplete = state !== null && !state.complete;
        return { ...page, indexing: incomplete ? state.builder.progress() : null };
      },
    },
  };
}
