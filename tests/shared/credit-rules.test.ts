import { describe, expect, it } from 'vitest';
import { creditRiskDetailRoute, externalDetailRoute, monitoringTarget, riskReminderPollMs } from '../../src-shared/rules/credit';
import { checkSpecRoute } from '../../src-shared/routes';

const check = (route: string) => {
  const url = new URL(route, 'app://contract-desk');
  return checkSpecRoute(url.pathname, url.search);
};

describe('credit view rules', () => {
  it('polls the risk reminders every 10 minutes (spec 9)', () => {
    expect(riskReminderPollMs).toBe(600_000);
  });

  it('builds detail routes the spec routes accept, the credit-risk one with role and the page it came from', () => {
    expect(externalDetailRoute('p-1')).toBe('/manage/oppositeParty/externalDetail?id=p-1');
    const route = creditRiskDetailRoute('p-1', '/?tab=contracts&q=a b');
    const query = new URL(route, 'app://x').searchParams;
    expect(query.get('role')).toBe('organization');
    expect(query.get('fromPagePathQuery')).toBe('/?tab=contracts&q=a b');
    expect(check(route)).toMatchObject({ ok: true });
    expect(check(externalDetailRoute('p-1'))).toMatchObject({ ok: true });
    // A page path longer than the route allows is cut, never refused.
    expect(check(creditRiskDetailRoute('p-1', `/${'x'.repeat(5000)}`))).toMatchObject({ ok: true });
  });

  it('opens app routes in a window, http(s) pages in the browser, and nothing else', () => {
    expect(monitoringTarget('/manage/oppositeParty/externalDetail?id=1&role=organization')).toEqual({ kind: 'route', path: '/manage/oppositeParty/externalDetail?id=1&role=organization' });
    expect(monitoringTarget('https://credit.example.com/m?c=%E4%B8%8A')).toEqual({ kind: 'web', url: 'https://credit.example.com/m?c=%E4%B8%8A' });
    for (const refused of ['//evil.example.com/x', 'javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@example.com/', 'not a url']) {
      expect(monitoringTarget(refused)).toEqual({ kind: 'refuse' });
    }
  });
});
