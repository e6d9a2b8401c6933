import type { TFunction } from 'i18next';
import { templateMessages } from '../../../src-shared/rules/templates';
import type { DraftIssue } from './templateDraft';

// The template rules' messages (src-shared/rules/templates.ts) and the schema's missing names in
// the UI's language; any other message is shown as the schema wrote it.

const keys = new Map(Object.entries(templateMessages).map(([key, message]) => [message as string, key as keyof typeof templateMessages]));

export function draftIssueText(t: TFunction, issue: Pick<DraftIssue, 'path' | 'message' | 'code'>): string {
  const key = keys.get(issue.message);
  if (key) return t(`templates.issueText.${key}`);
  if (issue.code === 'too_small' && issue.path === 'name') return t('templates.editor.namePlaceholder');
  if (issue.code === 'too_small' && issue.path.endsWith('.name')) return t('templates.field.nameRequired');
  return issue.message;
}

/** The texts of issues, each once. */
export function issueTexts(t: TFunction, issues: readonly DraftIssue[]): string[] {
  return [...new Set(issues.map((issue) => draftIssueText(t, issue)))];
}
