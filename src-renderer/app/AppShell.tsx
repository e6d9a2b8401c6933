import { Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { NumberNotices } from '../features/contracts/NumberNotices';
import { ReminderBell } from '../features/reminders/ReminderBell';
import { SessionControls } from '../features/session/SessionControls';
import { LanguageMenu } from '../features/settings/LanguageMenu';
import { SyncIndicator } from '../features/sync/SyncIndicator';
import { LinkButton } from './LinkButton';
import { currentNavEntry, navEntries } from './navigation';

/**
 * The main window (UI.md): the top bar (app name, sync state, language, the user's menu), the
 * navigation on the left and the screen. Every part keeps its own box: nothing floats over another,
 * whatever the sync indicator shows.
 */
export function AppShell() {
  const { t } = useTranslation();
  const current = currentNavEntry(useLocation().pathname);
  return (
    <div className="app-shell">
      <Navbar className="app-shell__topbar" data-testid="app-topbar">
        <NavbarGroup>
          <NavbarHeading className="app-shell__name">{t('app.name')}</NavbarHeading>
        </NavbarGroup>
        <NavbarGroup className="app-shell__status">
          <SyncIndicator />
          <NavbarDivider />
          <ReminderBell />
          <LanguageMenu />
          <SessionControls />
        </NavbarGroup>
      </Navbar>
      <nav className="app-shell__nav" aria-label={t('mainWindow.navigation')} data-testid="app-nav">
        {navEntries.map((entry) => (
          <LinkButton
            key={entry.to}
            to={entry.to}
            variant="minimal"
            alignText="start"
            fill
            icon={entry.icon}
            text={t(`mainWindow.nav.${entry.label}`)}
            active={entry === current}
            aria-current={entry === current ? 'page' : undefined}
            data-testid={`nav-${entry.label}`}
          />
        ))}
      </nav>
      <main className="app-shell__main" data-testid="app-content">
        <NumberNotices />
        <Outlet />
      </main>
    </div>
  );
}
