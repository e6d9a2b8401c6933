import type { ReactNode } from 'react';
import { Callout, Spinner } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import { errorText } from '../../i18n/errorText';
import { formatDateTime } from '../../i18n/format';

interface ReadStateProps<T> {
  read: { data: T; fetchedAt: string; offline: boolean } | undefined;
  error: AppError | SerializedError | undefined;
  children(data: T): ReactNode;
}

/**
 * A server read on screen: its data, the kept copy "as of" its time while the server is away
 * (UI.md "Offline"), or why there is nothing to show.
 */
export function ReadState<T>({ read, error, children }: ReadStateProps<T>) {
  const { t, i18n } = useTranslation();
  if (!read && error) {
    return (
      <Callout intent="danger" icon="error" title={t('manage.loadFailed')} role="alert">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!read) return <Spinner className="manage__loading" />;
  return (
    <>
      {read.offline && (
        <Callout intent="warning" icon="offline" className="manage__as-of" data-testid="manage-as-of">
          {t('manage.asOf', { time: formatDateTime(read.fetchedAt, i18n.language) })}
        </Callout>
      )}
      {children(read.data)}
    </>
  );
}
