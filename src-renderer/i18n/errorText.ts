import type { SerializedError } from '@reduxjs/toolkit';
import type { TFunction } from 'i18next';
import { defaultErrorMessages, toAppError, type AppError } from '../../src-shared/errors';

/**
 * The plain message for an error: the catalog's by code, else the message the core sent. Takes
 * what RTK Query hands out (our AppError, or a thrown error it serialized).
 */
export function errorText(t: TFunction, error: AppError | SerializedError): string {
  const appError = toAppError(error);
  return t(`errors.${appError.code}`, { defaultValue: appError.message });
}

/**
 * The catalog's text for the error, followed by the error's own message when that says more (the
 * server's words on why a step is not possible now, or why a queued edit was set aside).
 */
export function errorTextWithDetail(t: TFunction, error: AppError | SerializedError): string {
  const appError = toAppError(error);
  const text = errorText(t, appError);
  return appError.message === text || appError.message === defaultErrorMessages[appError.code] ? text : `${text} (${appError.message})`;
}
