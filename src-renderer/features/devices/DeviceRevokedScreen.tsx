import { Button, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';

/** What a revoked device shows once it has erased its data (issue 32): why, in the administrator's words. */
export function DeviceRevokedScreen({ refusal, onContinue }: { refusal: AppError; onContinue(): void }) {
  const { t } = useTranslation();
  const why = refusal.reason?.params?.reason;
  return (
    <div className="app-centered" data-testid="device-revoked">
      <NonIdealState
        icon="disable"
        title={t('devices.revokedScreen.title')}
        description={
          <>
            <p>{t('devices.revokedScreen.body')}</p>
            {typeof why === 'string' && why !== '' && <p data-testid="device-revoked-reason">{t('devices.revokedScreen.reason', { reason: why })}</p>}
          </>
        }
        action={<Button intent="primary" text={t('devices.revokedScreen.continue')} onClick={onContinue} data-testid="device-revoked-continue" />}
      />
    </div>
  );
}
