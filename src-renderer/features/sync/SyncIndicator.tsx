import { Button, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSyncNowMutation, useSyncStatusQuery } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { formatDateTime } from '../../i18n/format';
import { syncView } from './syncView';

/** Online/offline state of the contract server, sync progress, last sync time and "sync now". */
export function SyncIndicator() {
  const { t, i18n } = useTranslation();
  const { data: status } = useSyncStatusQuery();
  const [syncNow, { isLoading: starting }] = useSyncNowMutation();
  const onFailure = useActionFailure();
  const view = syncView(status);
  const label = view.progress ? `${t(view.labelKey)} ${t('sync.progress', view.progress)}` : t(view.labelKey);
  const lastSync = status?.lastSyncAt
    ? t('sync.lastSync', { time: formatDateTime(status.lastSyncAt, i18n.language) })
    : t('sync.neverSynced');

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
      <span className="sync-indicator__last">{lastSync}</span>
      <Button
        variant="minimal"
        icon="refresh"
        text={t('sync.syncNow')}
        loading={starting || status?.phase === 'pulling'}
        onClick={() => void syncNow().unwrap().catch(onFailure)}
      />
    </div>
  );
}
