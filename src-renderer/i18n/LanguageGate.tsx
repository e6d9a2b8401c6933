import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppInfoQuery, usePageLanguageMutation, useSettingsQuery } from '../api/api';
import { useAppSelector } from '../app/hooks';
import { LoadingScreen } from '../app/StatusScreens';
import { useBlueprintCloseLabel } from './blueprintLabels';
import { uiLanguage } from './language';

/**
 * Applies the UI language (settings.language, else the system's: see uiLanguage). The first time,
 * it holds the UI back until the language is known, so a Chinese desktop never flashes English;
 * later switches happen in place. The core is told it, so the words it writes for the UI
 * (reminders, the contract document's values) are the page's too.
 */
export function LanguageGate({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const appInfo = useAppInfoQuery();
  const settings = useSettingsQuery();
  const [applied, setApplied] = useState(false);
  const [tellCore] = usePageLanguageMutation();
  const connection = useAppSelector((state) => state.connection.state);
  const known = !appInfo.isLoading && !settings.isLoading;
  const language = known ? uiLanguage(settings.data, appInfo.data, navigator.languages.length > 0 ? navigator.languages : [navigator.language]) : null;

  useEffect(() => {
    if (language) void i18n.changeLanguage(language).then(() => setApplied(true));
  }, [i18n, language]);

  useEffect(() => {
    // Told again whenever the line to the web host reopens: a restarted host's core has forgotten it.
    if (language && connection !== 'reconnecting') void tellCore({ language });
  }, [language, connection, tellCore]);

  useBlueprintCloseLabel(t('app.close'));

  useEffect(() => {
    document.documentElement.lang = i18n.language;
    document.title = t('app.name');
  }, [i18n.language, t]);

  return applied ? children : <LoadingScreen />;
}
