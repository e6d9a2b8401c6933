import { endpoints } from '../../../src-shared/api/endpoints';
import type { CoreFeature, FeatureHost } from '../feature';
import { cachedReadStore } from '../data/cached-reads';
import { cachedRead, checkedEndpointRequest, onlineCall, readKey } from '../session/online-call';

// `cached.read` (issue 15): any listed server read, answered by the server and kept, or from the
// replica "as of" its time while the server is away. Keyed by endpoint and its parameters.

export function createCachedReadsFeature(host: FeatureHost): CoreFeature<'cached.read'> {
  return {
    handlers: {
      'cached.read': (request) => {
        const session = host.signedIn();
        const checked = checkedEndpointRequest(request);
        return cachedRead(cachedReadStore(session.replica.db, session.user.id), host.clock, {
          kind: request.endpoint,
          key: readKey({ params: request.params, query: request.query }),
          schema: endpoints[request.endpoint].response,
          fetch: () => onlineCall(session, request.endpoint, checked),
        });
      },
    },
  };
}
