import type { CoreFeature, FeatureHost } from '../feature';
import { perSession } from '../session/session-service';
import { fullTextSearch } from './full-text';

// The local full-text search (issue 14): answered from the replica's FTS5 index, so it works offline.

export type SearchChannel = 'search.fullText';

export function createSearchFeature(host: FeatureHost): CoreFeature<SearchChannel> {
  // One searcher per session, over that session's replica.
  const searchOf = perSession((session) => fullTextSearch(session.replica.sqlite));
  return {
    handlers: {
      'search.fullText': (request) => searchOf(host.signedIn()).search(request),
    },
  };
}
