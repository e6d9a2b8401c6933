import { Callout, Spinner } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import { errorText } from '../../i18n/errorText';

/** A contract screen while its data loads, or why it could not be read ({code, message} text). */
export function ScreenState({ error, title }: { error: AppError | SerializedError | undefined; title: string }) {
  const { t } = useTranslation();
  if (!error) return <Spinner className="contract-screen__loading" />;
  return (
    <Callout intent="danger" icon="error" title={title} role="alert" data-testid="contract-screen-error">
      {errorText(t, error)}
    </Callout>
  );
}
