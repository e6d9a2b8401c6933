import type { IconName } from '@blueprintjs/core';
import type { Catalog } from '../../src-shared/i18n/catalogs';

/** One entry of the main window's navigation (UI.md "The main window"). */
export interface NavEntry {
  to: string;
  icon: IconName;
  label: keyof Catalog['mainWindow']['nav'];
  /** The paths whose screens belong to this entry: it is shown as current on them and below them. */
  section: readonly string[];
}

/**
 * The navigation, top to bottom. An entry joins (one line) when its screen is built, with its own
 * route beside the spec's: counterparties (/counterparties), projects (/projects), IP (/ip/…) and
 * settings (/settings/…). Until then it stays out, never a placeholder.
 */
export const navEntries: readonly NavEntry[] = [
  {
    to: '/',
    icon: 'th',
    label: 'ledger',
    section: ['/', '/standingBook', '/myContract', '/contractApproval', '/template'],
  },
  { to: '/templates', icon: 'document', label: 'templates', section: ['/templates', '/templateApproval'] },
  { to: '/counterparties', icon: 'people', label: 'counterparties', section: ['/counterparties', '/manage/oppositeParty'] },
  { to: '/projects', icon: 'projects', label: 'projects', section: ['/projects'] },
  { to: '/settings/numbering', icon: 'numbered-list', label: 'numbering', section: ['/settings/numbering'] },
  { to: '/settings/performances', icon: 'properties', label: 'performances', section: ['/settings/performances'] },
  { to: '/settings/organisation', icon: 'office', label: 'organisation', section: ['/settings/organisation'] },
  { to: '/settings/devices', icon: 'mobile-phone', label: 'devices', section: ['/settings/devices'] },
  { to: '/settings/audit', icon: 'history', label: 'audit', section: ['/settings/audit'] },
  { to: '/ip', icon: 'lightbulb', label: 'intellectualProperty', section: ['/ip'] },
  { to: '/legal', icon: 'briefcase', label: 'legal', section: ['/legal'] },
];

/** Whether `pathname` is `path` or lies below it. */
function within(pathname: string, path: string): boolean {
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The entry whose section holds the screen at `pathname`, if any. */
export function currentNavEntry(pathname: string): NavEntry | undefined {
  return navEntries.find((entry) => entry.section.some((path) => within(pathname, path)));
}
