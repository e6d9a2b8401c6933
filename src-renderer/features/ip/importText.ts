import type { TFunction } from 'i18next';
import { ipImportColumns } from '../../../src-shared/domain/intellectual-property';
import type { FieldIssue } from '../../../src-shared/errors';
import { languageForLocale } from '../../../src-shared/i18n/languages';
import { ipImportHeader, ipImportIssueField, ipImportMaxRows, type IpImportFileIssue } from '../../../src-shared/rules/ip-import';
import { issueText } from '../manage/issues';

// The import's issues in the UI language (issue 31): a row's issue with its column's label as the
// template names it, and the file's issue; a message this app does not know is not shown in the
// wire's English but as an invalid value of its column.

/** The column's label as the user's template heads it. */
function columnLabel(t: TFunction, locale: string, field: string): string {
  const index = (ipImportColumns as readonly string[]).indexOf(field);
  return index < 0 ? t('manage.ip.import.file') : ipImportHeader(languageForLocale(locale))[index]!;
}

/** A row's issue: "<column>: <message>" in the UI language (`locale`, i18n.language). */
export function rowIssueText(t: TFunction, locale: string, issue: FieldIssue): string {
  const unknown = /^unknown organization (.*)$/.exec(issue.message);
  const duplicate = /^duplicates row (\d+)$/.exec(issue.message);
  const known = issueText(t, issue.message);
  const message = unknown
    ? t('manage.ip.import.unknownOrganization', { name: unknown[1] })
    : duplicate
      ? t('manage.ip.import.duplicatesRow', { row: duplicate[1] })
      : issue.message === 'already registered'
        ? t('manage.ip.import.alreadyRegistered')
        : known === issue.message
          ? t('manage.ip.import.invalidValue')
          : known;
  return `${columnLabel(t, locale, ipImportIssueField(issue.path))}${t('manage.ip.import.labelSeparator')}${message}`;
}

/** The file's issue: the header (with the template's columns in the UI language), no rows, too many. */
export function fileIssueText(t: TFunction, locale: string, issue: IpImportFileIssue): string {
  switch (issue.kind) {
    case 'header':
      return t('manage.ip.import.badHeader', {
        columns: ipImportHeader(languageForLocale(locale)).join(t('manage.ip.import.listSeparator')),
        unknown: issue.unknownColumns.join(t('manage.ip.import.listSeparator')) || '--',
      });
    case 'noRows':
      return t('manage.ip.import.noRows');
    case 'tooManyRows':
      return t('manage.ip.import.tooManyRows', { max: ipImportMaxRows });
  }
}
