import type { Catalog } from '../../../src-shared/i18n/catalogs';

// The contract page's tabs (UI.md "The contract page") and how the query names them: `tab` by id
// (the spec's /contractApproval/detail opens PERFORMANCE_TAB), else `active` by position.

export const contractPageTabs = [
  { id: 'BASIC_TAB', label: 'basic' },
  { id: 'PERFORMANCE_TAB', label: 'performance' },
  { id: 'ATTACHMENT_TAB', label: 'attachments' },
  { id: 'COOPERATION_TAB', label: 'cooperation' },
  { id: 'HISTORY_TAB', label: 'history' },
  // Last, so the positions `active` names stay those of the tabs before it.
  { id: 'DOCUMENT_TAB', label: 'document' },
] as const satisfies readonly { id: string; label: keyof Catalog['contractPage']['tabs'] }[];

export type ContractPageTab = (typeof contractPageTabs)[number]['id'];

/** The tab the query asks for; the first (basic information) when it names none that exists. */
export function tabFromQuery(query: URLSearchParams): ContractPageTab {
  const byId = contractPageTabs.find((tab) => tab.id === query.get('tab'));
  if (byId) return byId.id;
  const active = query.get('active');
  const byPosition = active !== null && /^\d+$/.test(active) ? contractPageTabs[Number(active)] : undefined;
  return (byPosition ?? contractPageTabs[0]).id;
}

/** The query with `tab` switched to `tab` (and `active` to its position); the rest is kept as it was. */
export function queryWithTab(query: URLSearchParams, tab: ContractPageTab): URLSearchParams {
  const next = new URLSearchParams(query);
  next.set('tab', tab);
  next.set('active', String(contractPageTabs.findIndex((entry) => entry.id === tab)));
  return next;
}
