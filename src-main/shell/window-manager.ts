import type { Logger } from '../core/ports';
import { appOrigin } from './ipc-names';
import { checkAppRoute, partyDetailRoute } from './routes';

/** What to do with a URL a window asks to open (window.open, a link, a notification, a deep link). */
export type OpenDecision =
  | { kind: 'window'; route: string }
  | { kind: 'browser'; url: string }
  | { kind: 'refuse'; reason: string };

export interface OpenPolicy {
  /** Organisation-share (external) environments hide the counterparty detail (spec 2). */
  organizationShare: boolean;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function isAppOrigin(url: URL): boolean {
  // app: is not a "special" scheme, so URL.origin is "null": compare the parts.
  return `${url.protocol}//${url.host}` === appOrigin && !url.username && !url.password;
}

/**
 * Spec routes open as app windows, http(s) pages leave for the system browser, and everything
 * else (javascript:, file:, data:, other app hosts, unknown routes, bad queries) opens nothing.
 */
export function decideOpen(rawUrl: string, policy: OpenPolicy): OpenDecision {
  const url = parse(rawUrl);
  if (!url) return { kind: 'refuse', reason: 'malformed URL' };
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    // Credentials in a link are a phishing trick; the browser gets only plain addresses.
    if (url.username || url.password) return { kind: 'refuse', reason: 'credentials in URL' };
    return { kind: 'browser', url: url.href };
  }
  const checked = checkAppRoute(url);
  if (!checked.ok) return { kind: 'refuse', reason: checked.reason };
  if (policy.organizationShare && url.pathname === partyDetailRoute) {
    return { kind: 'refuse', reason: 'counterparty detail is hidden in organisation-share environments' };
  }
  return { kind: 'window', route: checked.route };
}

interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

export interface WindowManagerDeps extends OpenPolicy {
  /** Creates an app window (the same locked-down webPreferences and preload) on appOrigin + route. */
  createWindow(route: string): void;
  openExternal(url: string): Promise<void>;
  logger: Logger;
}

/** Decides, for every window, what may open and where it may navigate. */
export function createWindowManager(deps: WindowManagerDeps) {
  function open(url: string): OpenDecision {
    const decision = decideOpen(url, deps);
    if (decision.kind === 'window') deps.createWindow(decision.route);
    else if (decision.kind === 'browser') {
      deps.openExternal(decision.url).catch((error: unknown) => deps.logger.warn('could not open the system browser', String(error)));
    } else deps.logger.warn(`refused to open ${url.slice(0, 300)}: ${decision.reason}`);
    return decision;
  }

  return {
    open,
    /**
     * The renderer's explicit "open this route in a new window" (the bridge's openWindow): one of
     * the app's routes, never a web page or another origin; the asking window stays where it is.
     */
    openRoute(route: unknown): OpenDecision {
      if (typeof route !== 'string' || !route.startsWith('/') || route.startsWith('//') || route.length > 4096) {
        const decision: OpenDecision = { kind: 'refuse', reason: 'not an app route' };
        deps.logger.warn(`refused to open ${String(route).slice(0, 300)}: ${decision.reason}`);
        return decision;
      }
      return open(`${appOrigin}${route}`);
    },
    /** setWindowOpenHandler: the new window is always denied; the manager opens its own instead. */
    windowOpen({ url }: { url: string }): { action: 'deny' } {
      open(url);
      return { action: 'deny' };
    },
    /** will-navigate: a window stays on the app's origin; web links go to the browser instead. */
    navigate(event: NavigationEvent): void {
      const url = parse(event.url);
      if (url && isAppOrigin(url)) return;
      event.preventDefault();
      open(event.url);
    },
    /** will-redirect: a redirect never leaves the app's origin, and never opens anything. */
    redirect(event: NavigationEvent): void {
      const url = parse(event.url);
      if (url && isAppOrigin(url)) return;
      event.preventDefault();
      deps.logger.warn(`refused a redirect to ${event.url.slice(0, 300)}`);
    },
  };
}
export type WindowManager = ReturnType<typeof createWindowManager>;

/** An app:// URL passed on a (second) launch's command line, if any. */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.startsWith(`${appOrigin}/`)) ?? null;
}
