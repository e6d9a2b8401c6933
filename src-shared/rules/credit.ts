import { partyDetailRoute } from '../routes';

// The counterparty credit views (spec 2, 6, 9): where their links lead and how often the
// dashboard asks the credit platform again.

/**
 * The credit platform's risk dimensions, by the names it gives them, and the catalog word of each
 * (`credit.dimensions.<word>`): the names are the platform's vocabulary, shown in the user's
 * language. A name the platform adds later is shown as it comes.
 */
export const riskDimensionWords = {
  司法风险: 'judicial',
  经营风险: 'operating',
  税务风险: 'tax',
  行政处罚: 'administrativePenalty',
  股权出质: 'equityPledge',
  失信被执行: 'dishonestDebtor',
} as const;
export type RiskDimensionWord = (typeof riskDimensionWords)[keyof typeof riskDimensionWords];

/** The catalog word of a dimension the platform names, or null for one this app does not know. */
export function riskDimensionWord(name: string): RiskDimensionWord | null {
  return Object.prototype.hasOwnProperty.call(riskDimensionWords, name) ? riskDimensionWords[name as keyof typeof riskDimensionWords] : null;
}

/** Spec 9: the dashboard's risk reminders are asked for again every 10 minutes while online. */
export const riskReminderPollMs = 10 * 60 * 1000;

/** The external counterparty detail, as the risk reminders open it (spec 2). */
export function externalDetailRoute(counterpartyId: string): string {
  return `${partyDetailRoute}?${new URLSearchParams({ id: counterpartyId }).toString()}`;
}

/**
 * The external detail opened from the credit-risk dialog (spec 2): with role=organization and the
 * page it was opened from (path and query), so the detail can lead back there.
 */
export function creditRiskDetailRoute(counterpartyId: string, fromPage: string): string {
  return `${partyDetailRoute}?${new URLSearchParams({ id: counterpartyId, role: 'organization', fromPagePathQuery: fromPage.slice(0, 2048) }).toString()}`;
}

/** Where a monitoring URL opens: an app route in a new app window, an http(s) page in the system browser, anything else nowhere. */
export function monitoringTarget(url: string): { kind: 'route'; path: string } | { kind: 'web'; url: string } | { kind: 'refuse' } {
  if (url.startsWith('/') && !url.startsWith('//')) return { kind: 'route', path: url };
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.username && !parsed.password) return { kind: 'web', url: parsed.href };
  } catch {
    // Not a URL at all: nothing to open.
  }
  return { kind: 'refuse' };
}
