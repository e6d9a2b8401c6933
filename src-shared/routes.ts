// Spec point 2: the only routes the app defines, with the query each one takes. The renderer
// routes by this table and the Electron shell opens windows only on what passes its checks.

type Check = (value: string) => boolean;

const id: Check = (v) => /^[A-Za-z0-9_.:-]{1,64}$/.test(v);
const exactly = (expected: string): Check => (v) => v === expected;
const digits: Check = (v) => /^\d{1,18}$/.test(v);
const tabName: Check = (v) => /^[A-Z_]{1,40}$/.test(v);

/**
 * The contract page's tab (`tab`, as /contractApproval/detail names it, e.g. PERFORMANCE_TAB, and
 * `active`, the tab's position): every route showing the contract page takes them, so switching
 * tabs keeps a link that opens the same tab.
 */
const contractPageTab = { tab: tabName, active: digits };

interface RouteRule {
  query: Record<string, Check>;
  /** At least one of these must be present (the record the screen shows). */
  needsOneOf?: string[];
}

export const specRoutes = {
  '/template/detail': { query: {} },
  // The template under review; without it the screen lists the templates to choose from.
  '/templateApproval/detail': { query: { id } },
  // Opened in a new window with contractId + mode=contract; pushed in place with id.
  '/standingBook/detail': { query: { contractId: id, id, mode: exactly('contract'), ...contractPageTab }, needsOneOf: ['contractId', 'id'] },
  '/standingBook/create': { query: { mode: exactly('contract') } },
  '/myContract/detail': { query: { contractId: id, ...contractPageTab }, needsOneOf: ['contractId'] },
  '/contractApproval/detail': {
    query: { id, flowId: digits, ...contractPageTab },
    needsOneOf: ['id'],
  },
  '/manage/oppositeParty/externalDetail': {
    // fromPagePathQuery carries the page the credit-risk dialog was opened from, back to it.
    query: { id, role: exactly('organization'), fromPagePathQuery: (v) => v.length <= 2048 },
    needsOneOf: ['id'],
  },
} as const satisfies Record<string, RouteRule>;

export type SpecRoute = keyof typeof specRoutes;
export const specRoutePaths = Object.keys(specRoutes) as SpecRoute[];

/** The app's home (the ledger list) takes no query. */
const routeRules: Record<string, RouteRule> = { '/': { query: {} }, ...specRoutes };

/** The route of the counterparty detail that organisation-share environments hide (spec 2). */
export const partyDetailRoute: SpecRoute = '/manage/oppositeParty/externalDetail';

export type RouteCheck = { ok: true; route: string } | { ok: false; reason: string };

/**
 * Checks a path and query against the spec's routes: the route with its query, or why it is
 * refused (an unknown route, an unknown, repeated or malformed query parameter, a missing id).
 */
export function checkSpecRoute(pathname: string, search: string): RouteCheck {
  const searchParams = new URLSearchParams(search);
  const rule = routeRules[pathname];
  if (!rule) return { ok: false, reason: `unknown route ${pathname}` };
  for (const name of new Set(searchParams.keys())) {
    const check = rule.query[name];
    if (!check) return { ok: false, reason: `unknown query parameter ${name}` };
    const values = searchParams.getAll(name);
    if (values.length !== 1 || !check(values[0] ?? '')) return { ok: false, reason: `malformed query parameter ${name}` };
  }
  if (rule.needsOneOf && !rule.needsOneOf.some((name) => searchParams.has(name))) {
    return { ok: false, reason: `missing ${rule.needsOneOf.join(' or ')}` };
  }
  return { ok: true, route: pathname + search };
}
