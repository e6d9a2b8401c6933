import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppInfoQuery, useSettingsQuery } from '../api/api';
import { LoadingScreen } from '../app/StatusScreens';
import { uiLanguage } from './language';

/**
 * Applies the UI language (settings.language, else the OS locale from `app.info`) and holds the UI
 * back until it is known, so a Chinese desktop never flashes English first.
 */
export function LanguageGate({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const appInfo = useAppInfoQuery();
  const settings = useSettingsQuery();
  const known = !appInfo.isLoading && !settings.isLoading;
  const language = known ? uiLanguage(settings.data, appInfo.data, navigator.language) : null;

  useEffect(() => {
    if (language && i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);

  useEffect(() => {
    document.documentElement.lang = i18n.language;
    document.title = t('app.name');
  }, [i18n.language, t]);

  if (!language || i18n.language !== language) return <LoadingScreen />;
  return children;
}
