import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppInfoQuery, useSettingsQuery } from '../api/api';
import { LoadingScreen } from '../app/StatusScreens';
import { useBlueprintCloseLabel } from './blueprintLabels';
import { uiLanguage } from './language';

/**
 * Applies the UI language (settings.language, else the system's: see uiLanguage). The first time,
 * it holds the UI back until the language is known, so a Chinese desktop never flashes English;
 * later switches happen in place.
 */
export function LanguageGate({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const appInfo = useAppInfoQuery();
  const settings = useSettingsQuery();
  const [applied, setApplied] = useState(false);
  const known = !appInfo.isLoading && !settings.isLoading;
  const language = known ? uiLanguage(settings.data, appInfo.data, navigator.languages.length > 0 ? navigator.languages : [navigator.language]) : null;

  useEffect(() => {
    if (language) void i18n.changeLanguage(language).then(() => setApplied(true));
  }, [i18n, language]);

  useBlueprintCloseLabel(t('app.close'));

  useEffect(() => {
    document.documentElement.lang = i18n.language;
    document.title = t('app.name');
  }, [i18n.language, t]);

  return applied ? children : <LoadingScreen />;
}
