import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useRouteError } from 'react-router-dom';
import { LinkButton } from './LinkButton';
import { AppErrorScreen } from './StatusScreens';

function BackToLedger() {
  const { t } = useTranslation();
  return <LinkButton to="/" icon="arrow-left" text={t('app.backToLedger')} />;
}

export function NotFoundScreen() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return <NonIdealState icon="search" title={t('app.notFound', { path: pathname })} action={<BackToLedger />} />;
}

/** The router catches render errors of its routes itself; they get the same plain screen. */
export function RouteErrorScreen() {
  const { t } = useTranslation();
  console.error('A screen failed to render.', useRouteError());
  return <AppErrorScreen message={t('errors.internal')} />;
}
