import { catalogs } from '../../../src-shared/i18n/catalogs';
import { auditActionText, auditEntityText } from '../../../src-shared/i18n/audit-words';
import type { Language } from '../../../src-shared/i18n/languages';

/** The audit trail's entity and action codes in the words of the UI's language. */
export function auditWords(language: string) {
  const catalog = catalogs[language as Language] ?? catalogs.en;
  return { action: (action: string) => auditActionText(catalog, action), entity: (entity: string) => auditEntityText(catalog, entity) };
}
