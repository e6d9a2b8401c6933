import { appOrigin } from './ipc-names';

// Spec point 2: the only routes the app defines, with the query each one takes. A window is only
// ever opened on one of these, with a query that passes these checks; anything else is refused.

type Check = (value: string) => boolean;

const id: Check = (v) => /^[A-Za-z0-9_.:-]{1,64}$/.test(v);
const exactly = (expected: string): Check => (v) => v === expected;
const digits: Check = (v) => /^\d{1,18}$/.test(v);

interface RouteRule {
  query: Record<string, Check>;
  /** At least one of these must be present (the record the screen shows). */
  needsOneOf?: string[];
}

export const specRoutes: Record<string, RouteRule> = {
  '/': { query: {} },
  '/template/detail': { query: {} },
  '/templateApproval/detail': { query: {} },
  // Opened in a new window with contractId + mode=contract; pushed in place with id.
  '/standingBook/detail': { query: { contractId: id, id, mode: exactly('contract') }, needsOneOf: ['contractId', 'id'] },
  '/standingBook/create': { query: { mode: exactly('contract') } },
  '/myContract/detail': { query: { contractId: id }, needsOneOf: ['contractId'] },
  '/contractApproval/detail': {
    query: { id, flowId: digits, tab: (v) => /^[A-Z_]{1,40}$/.test(v), active: digits },
    needsOneOf: ['id'],
  },
  '/manage/oppositeParty/externalDetail': {
    // fromPagePathQuery carries the page the credit-risk dialog was opened from, back to it.
    query: { id, role: exactly('organization'), fromPagePathQuery: (v) => v.length <= 2048 },
    needsOneOf: ['id'],
  },
};

/** The route of the counterparty detail that organisation-share environments hide (spec 2). */
export const partyDetailRoute = '/manage/oppositeParty/externalDetail';

export type RouteCheck = { ok: true; route: string } | { ok: false; reason: string };

/**
 * Checks an app:// URL against the spec's routes. Returns the route with its query (what a window
 * loads), or why it is refused: another origin, an unknown route, an unknown, repeated or
 * malformed query parameter, or a missing record id.
 */
export function checkAppRoute(url: URL): RouteCheck {
  if (`${url.protocol}//${url.host}` !== appOrigin) return { ok: false, reason: 'not the app origin' };
  if (url.username || url.password || url.port) return { ok: false, reason: 'not the app origin' };
  const rule = specRoutes[url.pathname];
  if (!rule) return { ok: false, reason: `unknown route ${url.pathname}` };
  const names = [...url.searchParams.keys()];
  for (const name of names) {
    const check = rule.query[name];
    if (!check) return { ok: false, reason: `unknown query parameter ${name}` };
    const values = url.searchParams.getAll(name);
    if (values.length !== 1 || !check(values[0] ?? '')) return { ok: false, reason: `malformed query parameter ${name}` };
  }
  if (rule.needsOneOf && !rule.needsOneOf.some((name) => url.searchParams.has(name))) {
    return { ok: false, reason: `missing ${rule.needsOneOf.join(' or ')}` };
  }
  return { ok: true, route: url.pathname + url.search };
}
