import type { en } from '../../src-shared/i18n/en';

// Typed keys: a `t('...')` call with a key missing from the catalogs fails the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
