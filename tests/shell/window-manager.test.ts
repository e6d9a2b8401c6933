import { describe, expect, it, vi } from 'vitest';
import { appOrigin } from '../../src-main/shell/ipc-names';
import { specRoutePaths } from '../../src-shared/routes';
import { createWindowManager, decideOpen, deepLinkFromArgv } from '../../src-main/shell/window-manager';

const open = { organizationShare: false };
const app = (pathAndQuery: string) => `${appOrigin}${pathAndQuery}`;

// Spec 2: each route with a query it is opened with.
const specLinks = [
  '/',
  '/template/detail',
  '/templateApproval/detail',
  '/templateApproval/detail?id=0190a4b2-7c1e-7d3a-9f00-1234567890ab',
  '/standingBook/detail?contractId=7&mode=contract',
  '/standingBook/detail?id=0190a4b2-7c1e-7d3a-9f00-1234567890ab',
  '/standingBook/create?mode=contract',
  '/standingBook/create',
  '/myContract/detail?contractId=42',
  '/contractApproval/detail?id=9&flowId=0&tab=PERFORMANCE_TAB&active=0',
  '/manage/oppositeParty/externalDetail?id=5',
  '/manage/oppositeParty/externalDetail?id=5&role=organization&fromPagePathQuery=%2FstandingBook%2Fdetail%3FcontractId%3D7',
];

describe('window manager: what a URL opens', () => {
  it.each(specLinks)('opens the spec route %s as an app window', (link) => {
    expect(decideOpen(app(link), open)).toEqual({ kind: 'window', route: link });
  });

  it('knows every spec route and nothing else', () => {
    expect(['/', ...specRoutePaths].sort()).toEqual([...new Set(specLinks.map((l) => l.split('?')[0]))].sort());
  });

  it.each(['https://example.com/report?x=1', 'http://intranet.local/page'])('sends %s to the system browser', (url) => {
    expect(decideOpen(url, open)).toEqual({ kind: 'browser', url });
  });

  it.each([
    ['javascript:alert(1)', /app origin/],
    ['JaVaScRiPt:alert(document.cookie)', /app origin/],
    ['file:///etc/passwd', /app origin/],
    ['file:///C:/Windows/System32/calc.exe', /app origin/],
    ['data:text/html,<script>alert(1)</script>', /app origin/],
    ['app://elsewhere/standingBook/detail?contractId=7', /app origin/],
    ['app://desk:8080/standingBook/create', /app origin/],
    ['app://user@desk/standingBook/create', /app origin/],
    ['smb://server/share', /app origin/],
    ['https://user:pass@example.com/', /credentials/],
    ['not a url', /malformed URL/],
    [app('/unknown/route'), /unknown route/],
    [app('/standingBook/detail'), /missing contractId or id/],
    [app('/standingBook/detail?contractId='), /malformed query parameter contractId/],
    [app('/standingBook/detail?contractId=7&contractId=8'), /malformed query parameter contractId/],
    [app('/standingBook/detail?contractId=%3Cscript%3E'), /malformed query parameter contractId/],
    [app(`/myContract/detail?contractId=${'9'.repeat(65)}`), /malformed query parameter contractId/],
    [app('/standingBook/create?mode=template'), /malformed query parameter mode/],
    [app('/contractApproval/detail?id=9&flowId=x'), /malformed query parameter flowId/],
    [app('/contractApproval/detail?id=9&debug=1'), /unknown query parameter debug/],
  ])('refuses %s', (url, reason) => {
    const decision = decideOpen(url, open);
    expect(decision.kind).toBe('refuse');
    expect(decision.kind === 'refuse' && decision.reason).toMatch(reason);
  });

  it('hides the counterparty detail in organisation-share environments', () => {
    expect(decideOpen(app('/manage/oppositeParty/externalDetail?id=5'), { organizationShare: true })).toMatchObject({ kind: 'refuse' });
    expect(decideOpen(app('/standingBook/create'), { organizationShare: true })).toMatchObject({ kind: 'window' });
  });
});

describe('window manager: handlers', () => {
  const setup = () => {
    const deps = {
      createWindow: vi.fn(),
      openExternal: vi.fn(async () => {}),
      logger: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      organizationShare: false,
    };
    return { deps, manager: createWindowManager(deps) };
  };
  const navigation = (url: string) => ({ url, preventDefault: vi.fn() });

  it('always denies window.open and opens spec routes itself, links in the browser, nothing else', () => {
    const { deps, manager } = setup();
    expect(manager.windowOpen({ url: app('/standingBook/detail?contractId=7&mode=contract') })).toEqual({ action: 'deny' });
    expect(deps.createWindow).toHaveBeenCalledWith('/standingBook/detail?contractId=7&mode=contract');
    expect(manager.windowOpen({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(deps.openExternal).toHaveBeenCalledWith('https://example.com/');
    expect(manager.windowOpen({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(manager.windowOpen({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(deps.createWindow).toHaveBeenCalledTimes(1);
    expect(deps.openExternal).toHaveBeenCalledTimes(1);
    expect(deps.logger.warn).toHaveBeenCalledTimes(2);
  });

  it('keeps navigation on the app origin; a web link leaves for the browser', () => {
    const { deps, manager } = setup();
    const inside = navigation(app('/anything/the/renderer/routes?x=1'));
    manager.navigate(inside);
    expect(inside.preventDefault).not.toHaveBeenCalled();
    const web = navigation('https://example.com/');
    manager.navigate(web);
    expect(web.preventDefault).toHaveBeenCalled();
    expect(deps.openExternal).toHaveBeenCalledWith('https://example.com/');
    for (const url of ['file:///etc/passwd', 'javascript:void(0)', 'app://other/', 'garbage']) {
      const event = navigation(url);
      manager.navigate(event);
      expect(event.preventDefault).toHaveBeenCalled();
    }
    expect(deps.createWindow).not.toHaveBeenCalled();
  });

  it('refuses redirects off the app origin without opening anything', () => {
    const { deps, manager } = setup();
    const away = navigation('https://evil.example/');
    manager.redirect(away);
    expect(away.preventDefault).toHaveBeenCalled();
    expect(deps.openExternal).not.toHaveBeenCalled();
    const own = navigation(app('/'));
    manager.redirect(own);
    expect(own.preventDefault).not.toHaveBeenCalled();
  });

  it('treats a bad deep link as a logged no-op and a browser failure as a log line', async () => {
    const { deps, manager } = setup();
    expect(() => manager.open(app('/standingBook/detail?contractId=../../x'))).not.toThrow();
    expect(deps.createWindow).not.toHaveBeenCalled();
    expect(deps.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/refused to open/));
    deps.openExternal.mockRejectedValueOnce(new Error('no browser'));
    manager.open('https://example.com/');
    await new Promise((resolve) => setImmediate(resolve));
    expect(deps.logger.warn).toHaveBeenCalledWith('could not open the system browser', 'Error: no browser');
  });

  it('finds an app link on a second launch command line', () => {
    expect(deepLinkFromArgv(['/opt/app', '--flag', app('/standingBook/create')])).toBe(app('/standingBook/create'));
    expect(deepLinkFromArgv(['/opt/app', 'https://example.com/'])).toBeNull();
  });
});
