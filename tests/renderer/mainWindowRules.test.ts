import { describe, expect, it } from 'vitest';
import { checkSpecRoute } from '../../src-shared/routes';
import { currentNavEntry, navEntries } from '../../src-renderer/app/navigation';
import { queryWithTab, tabFromQuery } from '../../src-renderer/features/contracts/contractPageTabs';

// The main window's navigation and the contract page's tab in the query (UI.md).

describe('navigation', () => {
  it('marks the ledger on the home screen and on the contract screens reached from it', () => {
    for (const path of ['/', '/standingBook/detail', '/myContract/detail', '/contractApproval/detail', '/template/detail']) {
      expect(currentNavEntry(path)?.to, path).toBe('/');
    }
  });

  it('marks the templates on their screens and on the template approval page reached from them', () => {
    for (const path of ['/templates', '/templates/edit', '/templateApproval/detail']) expect(currentNavEntry(path)?.to, path).toBe('/templates');
  });

  it('marks nothing on a path no entry holds, and does not take a prefix for a section', () => {
    expect(currentNavEntry('/no/such/screen')).toBeUndefined();
    expect(currentNavEntry('/standingBookish')).toBeUndefined();
  });

  it('lists only entries whose screens exist', () => {
    expect(navEntries.map((entry) => entry.to)).toEqual(['/', '/templates', '/counterparties', '/projects', '/settings/numbering', '/settings/performances', '/settings/organisation', '/settings/devices', '/settings/audit', '/ip', '/legal']);
  });
});

describe("the contract page's tab in the query", () => {
  const query = (search: string) => new URLSearchParams(search);

  it('opens the tab named by tab, else the one at position active, else basic information', () => {
    expect(tabFromQuery(query('id=1&flowId=0&tab=PERFORMANCE_TAB&active=0'))).toBe('PERFORMANCE_TAB');
    expect(tabFromQuery(query('id=1&active=3'))).toBe('COOPERATION_TAB');
    expect(tabFromQuery(query('id=1&tab=NO_SUCH_TAB'))).toBe('BASIC_TAB');
    expect(tabFromQuery(query('id=1&active=9'))).toBe('BASIC_TAB');
    expect(tabFromQuery(query('contractId=1&mode=contract'))).toBe('BASIC_TAB');
  });

  it('writes the chosen tab and its position, keeping the rest of the query', () => {
    expect(queryWithTab(query('contractId=c1&mode=contract'), 'ATTACHMENT_TAB').toString()).toBe('contractId=c1&mode=contract&tab=ATTACHMENT_TAB&active=2');
    expect(queryWithTab(query('id=c1&flowId=0&tab=PERFORMANCE_TAB&active=0'), 'BASIC_TAB').toString()).toBe('id=c1&flowId=0&tab=BASIC_TAB&active=0');
  });

  it('is accepted on each route that shows the contract page, and refused when malformed', () => {
    for (const route of [
      '/standingBook/detail?contractId=c1&mode=contract&tab=COOPERATION_TAB&active=3',
      '/standingBook/detail?id=c1&tab=BASIC_TAB&active=0',
      '/myContract/detail?contractId=c1&tab=PERFORMANCE_TAB&active=1',
      '/contractApproval/detail?id=c1&flowId=0&tab=PERFORMANCE_TAB&active=0',
    ]) {
      const url = new URL(route, 'app://contract-desk');
      expect(checkSpecRoute(url.pathname, url.search), route).toEqual({ ok: true, route });
    }
    expect(checkSpecRoute('/standingBook/detail', '?id=c1&tab=performance')).toEqual({ ok: false, reason: 'malformed query parameter tab' });
    expect(checkSpecRoute('/myContract/detail', '?contractId=c1&active=first')).toEqual({ ok: false, reason: 'malformed query parameter active' });
  });
});
