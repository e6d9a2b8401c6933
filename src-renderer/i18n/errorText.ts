import type { SerializedError } from '@reduxjs/toolkit';
import type { TFunction } from 'i18next';
import { toAppError, type AppError } from '../../src-shared/errors';

/**
 * The plain message for an error: the catalog's by code, else the message the core sent. Takes
 * what RTK Query hands out (our AppError, or a thrown error it serialized).
 */
export function errorText(t: TFunction, error: AppError | SerializedError): string {
  const appError = toAppError(error);
  return t(`errors.${appError.code}`, { defaultValue: appError.message });
}
