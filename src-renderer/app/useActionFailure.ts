import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { SerializedError } from '@reduxjs/toolkit';
import type { AppError } from '../../src-shared/errors';
import { errorText } from '../i18n/errorText';
import { showFailure } from './toaster';

/** For `mutation().unwrap().catch(...)`: shows why an action failed, in the UI language. */
export function useActionFailure(): (error: AppError | SerializedError) => void {
  const { t } = useTranslation();
  return useCallback((error) => showFailure(errorText(t, error)), [t]);
}
