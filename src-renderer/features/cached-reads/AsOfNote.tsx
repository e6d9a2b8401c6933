import { Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { CachedAnswer } from '../../../src-shared/ipc/cached-reads';
import { formatDateTime } from '../../i18n/format';

/** Says plainly that a screen shows what it last read, and when; nothing while online. */
export function AsOfNote({ answer, testId }: { answer: CachedAnswer<unknown> | undefined; testId?: string }) {
  const { t, i18n } = useTranslation();
  if (!answer?.offline) return null;
  return (
    <Callout compact intent="warning" icon="offline" data-testid={testId ?? 'as-of-note'}>
      {t('cachedReads.asOf', { time: formatDateTime(answer.asOf, i18n.language) })}
    </Callout>
  );
}
