import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogs } from '../../src-shared/i18n/catalogs';
import { languages, type Language } from '../../src-shared/i18n/languages';

export const i18n = i18next.createInstance();

/** Starts i18next with both catalogs in memory, so a language switch never waits on a load. */
export function initI18n(language: Language): void {
  void i18n.use(initReactI18next).init({
    resources: Object.fromEntries(languages.map((l) => [l, { translation: catalogs[l] }])),
    lng: language,
    fallbackLng: 'en',
    supportedLngs: languages,
    load: 'currentOnly',
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
}
