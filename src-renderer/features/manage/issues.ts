import type { SerializedError } from '@reduxjs/toolkit';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { expirationBeforeApplicationMessage, ipStatusMessage, ipTypeMessage, registrationDateMessage } from '../../../src-shared/api/intellectual-property';
import { projectNameMessage } from '../../../src-shared/api/projects';
import { definitionMessages } from '../../../src-shared/rules/performance-definitions';
import { toAppError, type AppError } from '../../../src-shared/errors';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import { errorText } from '../../i18n/errorText';

// The server's validation messages (the spec's words, in English in src-shared/api) shown in the
// UI language: each known message has its catalog key; an unknown one is shown as sent.

type IssueKey = keyof Catalog['manage']['issues'];

const issueKeys: Record<string, IssueKey> = {
  [projectNameMessage]: 'projectName',
  'letters, digits, - and _ only': 'abbrCharacters',
  'please enter the name': 'name',
  'please enter the registration number': 'registrationNumber',
  [expirationBeforeApplicationMessage]: 'expirationBeforeApplication',
  [registrationDateMessage]: 'registrationDate',
  'please enter the title': 'title',
  'please enter the owner organization': 'ownerOrganization',
  'please choose the law firm': 'lawFirm',
  [ipTypeMessage]: 'ipType',
  [ipStatusMessage]: 'ipStatus',
  'must be a date yyyy-MM-dd': 'date',
};

/** The performance definition rules' messages (src-shared/rules/performance-definitions.ts) by catalog key. */
const definitionKeys = new Map(Object.entries(definitionMessages).map(([key, message]) => [message as string, key as keyof typeof definitionMessages]));

export function issueText(t: TFunction, message: string): string {
  const key = issueKeys[message];
  if (key) return t(`manage.issues.${key}`);
  const tooLong = /^at most (\d+) characters$/.exec(message);
  if (tooLong) return t('manage.issues.tooLong', { max: Number(tooLong[1]) });
  const definitionKey = definitionKeys.get(message);
  return definitionKey ? t(`definitions.issues.${definitionKey}`) : message;
}

/** Field → message of the first issue on each field of a failed parse (the dialog's own check). */
export function fieldIssues(error: z.ZodError, t: TFunction): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    fields[field] ??= issueText(t, issue.message);
  }
  return fields;
}

/** A refused write in words: the server's field messages when it names them, else the error's text. */
export function failureText(t: TFunction, error: AppError | SerializedError): string {
  const appError = toAppError(error);
  if (appError.code === 'validation_failed' && appError.issues?.length) return appError.issues.map((issue) => issueText(t, issue.message)).join('; ');
  return errorText(t, appError);
}
