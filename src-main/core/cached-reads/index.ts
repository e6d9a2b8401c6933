import { endpoints } from '../../../src-shared/api/endpoints';
import type { CachedReadName } from '../../../src-shared/ipc/cached-reads';
import type { EventPayload } from '../../../src-shared/ipc/channels';
import { lawFirmPage } from '../../../src-shared/form/parties';
import type { CoreFeature, FeatureHost } from '../feature';
import { cachedReadStore } from '../data/cached-reads';
import type { ActiveSession } from '../session/session-service';
import { cachedRead, checkedEndpointRequest, isServerAway, onlineCall, readKey } from '../session/online-call';

// `cached.read` (issue 15): any listed server read, answered by the server and kept, or from the
// replica "as of" its time while the server is away. Keyed by endpoint and its parameters.

/**
 * Reads whose answer screens need offline before they were ever opened, so they are kept at
 * sign-in and again on every reconnect: the organisation's settings (the credit platform
 * configuration gates the dashboard's risk reminders as well as the credit views), the
 * projects a contract drafted offline may name (the form's project picker), and the law firms
 * of its agent field, asked as that field asks them (the kept copy is found by its query).
 */
const keptAhead: readonly { endpoint: CachedReadName; query: Record<string, string | number> }[] = [
  { endpoint: 'organisationSettings', query: {} },
  { endpoint: 'projectListAll', query: {} },
  { endpoint: 'lawFirmList', query: { ...lawFirmPage } },
];

export function createCachedReadsFeature(host: FeatureHost): CoreFeature<'cached.read'> {
  let current: ActiveSession | null = null;
  let online = false;

  function read(session: ActiveSession, request: { endpoint: CachedReadName; params: Record<string, string>; query: Record<string, string | number | boolean> }) {
    const checked = checkedEndpointRequest(request);
    return cachedRead(cachedReadStore(session.replica.db, session.user.id), host.clock, {
      kind: request.endpoint,
      key: readKey({ params: request.params, query: request.query }),
      schema: endpoints[request.endpoint].response,
      fetch: () => onlineCall(session, request.endpoint, checked),
    });
  }

  /** Fetches and keeps the reads kept ahead; a server away now is asked again on reconnect. */
  async function keepAhead(session: ActiveSession) {
    for (const { endpoint, query } of keptAhead) {
      try {
        await read(session, { endpoint, params: {}, query });
      } catch (cause) {
        // Signed out meanwhile (the replica is closed), or the server refused: the screen asks again.
        if (session === current && !isServerAway(cause)) host.logger.warn(`could not keep the ${endpoint} read ahead`, cause);
      }
    }
  }

  // Reconnected: the server's answer may have changed while this device was away.
  host.hub.subscribe((event, payload) => {
    if (event !== 'sync.statusChanged') return;
    const status = payload as EventPayload<'sync.statusChanged'>;
    const back = status.online && !online;
    online = status.online;
    if (back && current) void keepAhead(current);
  });

  return {
    start(session) {
      current = session;
      // Signed in just now (the server answered), or a session restored at start, online or not.
      online = true;
      void keepAhead(session);
    },
    stop() {
      current = null;
    },
    handlers: {
      'cached.read': (request) => read(host.signedIn(), request),
    },
  };
}
