import type { ReactNode } from 'react';
import { Callout, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import type { CachedAnswer } from '../../../src-shared/ipc/cached-reads';
import { errorText } from '../../i18n/errorText';
import { AsOfNote } from '../cached-reads/AsOfNote';

interface ReadStateProps<T> {
  answer: CachedAnswer<T> | undefined;
  error: AppError | undefined;
  children(value: T): ReactNode;
  /** False where the screen says "as of" once for all its reads (oldestOffline), not per read. */
  asOfNote?: boolean;
}

/** Of a screen's reads, the kept one read longest ago while the server is away: the one "as of" note to show. */
export function oldestOffline(...answers: (CachedAnswer<unknown> | undefined)[]): CachedAnswer<unknown> | undefined {
  return answers.filter((answer) => answer?.offline).sort((a, b) => a!.asOf.localeCompare(b!.asOf))[0];
}

/**
 * A server read on screen: its data, the kept copy "as of" its time while the server is away
 * (UI.md "Offline"), or why there is nothing to show.
 */
export function ReadState<T>({ answer, error, children, asOfNote = true }: ReadStateProps<T>) {
  const { t } = useTranslation();
  if (!answer && error) {
    return (
      <Callout intent="danger" icon="error" title={t('manage.loadFailed')} role="alert">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!answer) return <Spinner className="manage__loading" />;
  return (
    <>
      {asOfNote && <AsOfNote answer={answer} />}
      {children(answer.value)}
    </>
  );
}
