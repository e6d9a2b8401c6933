import { useState } from 'react';
import { Button, Card, Callout, ControlGroup, FormGroup, InputGroup, Switch } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { maxOfflineLockDays, offlineLockDaysSchema, type OrganisationSettings } from '../../../src-shared/api/organisation';
import type { AppError } from '../../../src-shared/errors';
import { showFailure, showNotice } from '../../app/toaster';
import { failureText } from '../manage/issues';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import '../manage/manage.css';

/**
 * The offline lock's days (issue 32), typed and saved on their own. Administrators, online only:
 * offline the screen shows the days as last read.
 */
function OfflineLockField({ days, disabled, save }: { days: number; disabled: boolean; save(days: number): Promise<void> }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState<string | null>(null);
  const value = typed ?? String(days);
  const parsed = offlineLockDaysSchema.safeParse(Number(value));
  const invalid = value.trim() === '' || !parsed.success;
  return (
    <FormGroup
      label={t('organisation.offlineLockDays')}
      labelFor="offline-lock-days"
      helperText={invalid ? t('organisation.offlineLockInvalid', { max: maxOfflineLockDays }) : t('organisation.offlineLockHelp')}
      intent={invalid ? 'danger' : 'none'}
    >
      <ControlGroup>
        <InputGroup id="offline-lock-days" inputMode="numeric" value={value} disabled={disabled} intent={invalid ? 'danger' : 'none'} onValueChange={setTyped} style={{ width: 90 }} data-testid="offline-lock-days" />
        <Button
          text={t('organisation.save')}
          disabled={disabled || invalid || Number(value) === days}
          onClick={() => void save(Number(value)).then(() => setTyped(null))}
          data-testid="offline-lock-days-save"
        />
      </ControlGroup>
    </FormGroup>
  );
}

/**
 * The organisation's settings (Settings): the counterparty credit platform configuration (spec 6)
 * and the offline lock's days (issue 32), changed by administrators while the server can be
 * reached; others, and everyone offline, see them as last read.
 */
export function OrganisationScreen() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const read = useServerRead('organisationSettings');
  const write = useServerWrite();
  const [saving, setSaving] = useState(false);
  const isAdmin = user?.role === 'admin';

  async function change(body: Partial<OrganisationSettings>) {
    setSaving(true);
    try {
      await write('organisationSettingsUpdate', { body });
      showNotice(t('organisation.saved'));
    } catch (cause) {
      showFailure(failureText(t, cause as AppError | SerializedError));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="manage" data-testid="organisation-settings">
      <h2 className="manage__title">{t('organisation.title')}</h2>
      {!isAdmin && <Callout compact icon="lock">{t('organisation.readOnly')}</Callout>}
      <ReadState answer={read.answer} error={read.error}>
        {(settings) => (
          <Card>
            <Switch
              large
              checked={settings.creditPlatformEnabled}
              disabled={!isAdmin || saving}
              label={t('organisation.creditPlatform')}
              innerLabelChecked={t('organisation.on')}
              innerLabel={t('organisation.off')}
              onChange={(event) => void change({ creditPlatformEnabled: event.currentTarget.checked })}
              data-testid="credit-platform-switch"
            />
            <p className="manage__muted">{t('organisation.creditPlatformHelp')}</p>
            <OfflineLockField days={settings.offlineLockDays} disabled={!isAdmin || saving || read.answer?.offline === true} save={(offlineLockDays) => change({ offlineLockDays })} />
          </Card>
        )}
      </ReadState>
    </section>
  );
}
