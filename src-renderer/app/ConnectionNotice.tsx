import { Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from './hooks';

/** A non-blocking notice while the line to the app core is down; the screen stays usable. */
export function ConnectionNotice() {
  const { t } = useTranslation();
  const reconnecting = useAppSelector((state) => state.connection.state === 'reconnecting');
  if (!reconnecting) return null;
  return (
    <Callout className="connection-notice" intent="warning" icon="offline" role="status" data-testid="connection-lost">
      {t('errors.connectionLost')}
    </Callout>
  );
}
