import { useState } from 'react';
import { Card, Callout, Switch } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import { showFailure, showNotice } from '../../app/toaster';
import { failureText } from '../manage/issues';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import '../manage/manage.css';

/**
 * The organisation's settings (Settings): the counterparty credit platform configuration (spec 6),
 * turned on and off by administrators while the server can be reached; others, and everyone
 * offline, see it as last read.
 */
export function OrganisationScreen() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const read = useServerRead('organisationSettings');
  const write = useServerWrite();
  const [saving, setSaving] = useState(false);
  const isAdmin = user?.role === 'admin';

  async function turn(creditPlatformEnabled: boolean) {
    setSaving(true);
    try {
      await write('organisationSettingsUpdate', { body: { creditPlatformEnabled } });
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
              onChange={(event) => void turn(event.currentTarget.checked)}
              data-testid="credit-platform-switch"
            />
            <p className="manage__muted">{t('organisation.creditPlatformHelp')}</p>
          </Card>
        )}
      </ReadState>
    </section>
  );
}
