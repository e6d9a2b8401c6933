import { Button, Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useDismissNumberNoticeMutation, useNumberNoticesQuery } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';
import { LinkButton } from '../../app/LinkButton';

/** Provisional numbers the server replaced on sync, each shown until the user dismisses it. */
export function NumberNotices() {
  const { t } = useTranslation();
  const { data: notices } = useNumberNoticesQuery();
  const [dismiss] = useDismissNumberNoticeMutation();
  const failed = useActionFailure();
  if (!notices || notices.length === 0) return null;
  return (
    <div className="number-notices">
      {notices.map((notice) => (
        <Callout key={notice.contractId} intent="warning" icon="warning-sign" data-testid="number-notice" data-contract-id={notice.contractId}>
          <span data-testid="number-notice-text">
            {t('contracts.numberReplaced', { provisional: notice.provisional, confirmed: notice.confirmed, contractName: notice.contractName })}
          </span>
          <LinkButton
            to={`/standingBook/detail?${new URLSearchParams({ id: notice.contractId })}`}
            variant="minimal"
            size="small"
            text={t('messages.view')}
          />
          <Button
            variant="minimal"
            size="small"
            data-testid="number-notice-dismiss"
            text={t('contracts.dismiss')}
            onClick={() => void dismiss({ contractId: notice.contractId }).unwrap().catch(failed)}
          />
        </Callout>
      ))}
    </div>
  );
}
