import { checkSpecRoute, type RouteCheck } from '../../src-shared/routes';
import { appOrigin } from './ipc-names';

export { partyDetailRoute, type RouteCheck } from '../../src-shared/routes';

/** Checks an app:// URL: the app's own origin, then the spec's routes and their queries. */
export function checkAppRoute(url: URL): RouteCheck {
  if (`${url.protocol}//${url.host}` !== appOrigin) return { ok: false, reason: 'not the app origin' };
  if (url.username || url.password || url.port) return { ok: false, reason: 'not the app origin' };
  return checkSpecRoute(url.pathname, url.search);
}
