import type { SerializedError } from '@reduxjs/toolkit';
import type { TFunction } from 'i18next';
import { defaultErrorMessages, toAppError, type AppError, type Reason } from '../../src-shared/errors';
import { reasonsEn } from '../../src-shared/i18n/catalogs/reasons';

/**
 * The plain message for an error: why, from its reason, where it has one this app knows (a rule's
 * refusal says more than its code, whose text can read wrong: a status refusal is no edit by
 * someone else); else the catalog's text for its code, else the message the core sent. Takes what
 * RTK Query hands out (our AppError, or a thrown error it serialized).
 */
export function errorText(t: TFunction, error: AppError | SerializedError): string {
  const appError = toAppError(error);
  return whyOf(t, appError) ?? codeText(t, appError);
}

const codeText = (t: TFunction, error: AppError) => t(`errors.${error.code}`, { defaultValue: error.message });
const whyOf = (t: TFunction, error: AppError) => (error.reason ? reasonText(t, error.reason) : null);

/** Keys built from what an error carries: checked against the catalog at run time (defaultValue). */
type LooseT = (key: string, options: Record<string, unknown>) => string;

/**
 * Why, in the user's language (src-shared/i18n/catalogs/reasons.ts): each value shown by the
 * catalog's words of its name where it has one, a list joined with "or". Null for a key this app
 * does not know (a newer server's).
 */
export function reasonText(t: TFunction, reason: Reason): string | null {
  const translate = t as unknown as LooseT;
  // Only values of a name the catalog has words for are looked up (a task's name is shown as it is).
  const word = (name: string, value: string | number) =>
    Object.prototype.hasOwnProperty.call(reasonsEn.words, name) ? translate(`reasons.words.${name}.${value}`, { defaultValue: String(value) }) : String(value);
  const values = Object.fromEntries(
    Object.entries(reason.params ?? {}).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map((one) => word(name, one)).join(translate('reasons.or', {})) : word(name, value as string | number),
    ]),
  );
  const text = translate(`reasons.text.${reason.key}`, { ...values, defaultValue: '' });
  return text === '' ? null : text;
}

/**
 * The error's plain message, followed by its own message when that says more and no reason says
 * it better (the server's words on why a step is not possible now, or why a queued edit was set aside).
 */
export function errorTextWithDetail(t: TFunction, error: AppError | SerializedError): string {
  const appError = toAppError(error);
  const why = whyOf(t, appError);
  if (why !== null) return why;
  const text = codeText(t, appError);
  return appError.message === text || appError.message === defaultErrorMessages[appError.code] ? text : `${text} (${appError.message})`;
}
