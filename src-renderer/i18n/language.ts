import type { AppInfo, Settings } from '../../src-shared/ipc/channels';
import { languageForLocale, type Language } from '../../src-shared/i18n/languages';

/**
 * The UI language: the saved choice, else the operating system's locale (from the core), else the
 * browser's own locale while the core has not answered.
 */
export function uiLanguage(settings: Settings | undefined, appInfo: AppInfo | undefined, browserLocale: string): Language {
  return settings?.language ?? languageForLocale(appInfo?.systemLocale ?? browserLocale);
}
