import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppError } from '../../../src-shared/errors';
import { FormValidationError } from '../../../src-shared/form/validation';
import { showFailure } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';

/**
 * Why a save did not happen: 'validation failed' when the form refused it (each field shows its
 * own message), otherwise the {code, message} the core answered, in the UI language.
 */
export function useSaveFailure(): (cause: unknown) => void {
  const { t } = useTranslation();
  return useCallback(
    (cause) => showFailure(cause instanceof FormValidationError ? t('form.validationFailed') : errorText(t, toAppError(cause))),
    [t],
  );
}
