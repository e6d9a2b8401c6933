import { Alignment, Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatch } from 'react-router-dom';
import { NumberNotices } from '../features/contracts/NumberNotices';
import { SessionControls } from '../features/session/SessionControls';
import { LanguageMenu } from '../features/settings/LanguageMenu';
import { SyncIndicator } from '../features/sync/SyncIndicator';
import { LinkButton } from './LinkButton';

/** The application frame: navbar (app name, navigation, sync state, language, sign out) and the screen. */
export function AppShell() {
  const { t } = useTranslation();
  const atLedger = useMatch('/') !== null;
  return (
    <div className="app-shell">
      <Navbar className="app-shell__navbar">
        <NavbarGroup align={Alignment.START}>
          <NavbarHeading className="app-shell__name">{t('app.name')}</NavbarHeading>
          <NavbarDivider />
          <LinkButton to="/" variant="minimal" icon="th" text={t('app.ledger')} active={atLedger} />
        </NavbarGroup>
        <NavbarGroup align={Alignment.END}>
          <SyncIndicator />
          <NavbarDivider />
          <LanguageMenu />
          <SessionControls />
        </NavbarGroup>
      </Navbar>
      <main className="app-shell__main">
        <NumberNotices />
        <Outlet />
      </main>
    </div>
  );
}
