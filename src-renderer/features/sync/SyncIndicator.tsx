import { Button, PopoverNext, ProgressBar, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSyncNowMutation, useSyncStatusQuery } from '../../api/api';
import { showFailure } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { formatDateTime } from '../../i18n/format';
import { SyncPanel } from './SyncPanel';
import { firstSyncProgress, syncView } from './syncView';

/**
 * Online/offline state of the contract server, sync progress, last sync time, the queue of local
 * changes and what needs settling (its panel), and "sync now".
 */
export function SyncIndicator() {
  const { t, i18n } = useTranslation();
  const { data: status } = useSyncStatusQuery();
  const [syncNow, { isLoading: starting }] = useSyncNowMutation();
  const onFailure = useActionFailure();
  // A sync asked for while the server is away ends offline at once: say so rather than nothing.
  const syncNowAndTell = () =>
    void syncNow()
      .unwrap()
      .then((after) => !after.online && showFailure(t('sync.syncNowOffline')), onFailure);
  const view = syncView(status);
  const label = view.progress ? `${t(view.labelKey)} ${t('sync.progress', view.progress)}` : t(view.labelKey);
  const lastSync = status?.lastSyncAt
    ? t('sync.lastSync', { time: formatDateTime(status.lastSyncAt, i18n.language) })
    : t('sync.neverSynced');
  const firstSync = firstSyncProgress(status);
  const problems = status?.problems.length ?? 0;

  return (
    <div className="sync-indicator">
      <Tag
        data-testid="sync-indicator"
        data-online={String(view.online)}
        intent={view.intent}
        minimal
        round
        icon={<span className={view.online ? 'sync-dot sync-dot--online' : 'sync-dot'} aria-hidden />}
        htmlTitle={status?.error ? errorText(t, status.error) : undefined}
      >
        {label}
      </Tag>
      {firstSync && <ProgressBar className="sync-indicator__progress" value={firstSync.fraction} intent="primary" stripes={false} />}
      <span className="sync-indicator__last">{lastSync}</span>
      {status && (
        <PopoverNext content={<SyncPanel status={status} />} placement="bottom-end">
          <Button
            data-testid="sync-details"
            data-queued={status.queued}
            data-problems={problems}
            variant="minimal"
            icon={problems > 0 ? 'warning-sign' : 'info-sign'}
            intent={problems > 0 ? 'warning' : 'none'}
            text={status.queued > 0 ? t('sync.queued', { count: status.queued }) : t('sync.details')}
          />
        </PopoverNext>
      )}
      <Button
        variant="minimal"
        icon="refresh"
        text={t('sync.syncNow')}
        loading={starting || status?.phase === 'pulling' || status?.phase === 'pushing'}
        data-testid="sync-now"
        onClick={syncNowAndTell}
      />
    </div>
  );
}
