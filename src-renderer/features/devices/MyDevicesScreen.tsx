import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../src-shared/api/devices';
import type { AppError } from '../../../src-shared/errors';
import { showFailure, showNotice } from '../../app/toaster';
import { failureText } from '../manage/issues';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { DevicesTable } from './DevicesTable';

/**
 * My devices (the user menu): where the user is signed in, this device marked; signing one out
 * ends its sessions there (online only, refused at once offline).
 */
export function MyDevicesScreen() {
  const { t } = useTranslation();
  const read = useServerRead('myDevices');
  const write = useServerWrite();
  const [busy, setBusy] = useState<string | null>(null);

  async function signOut(device: Device) {
    setBusy(device.id);
    try {
      await write('deviceSignOut', { params: { id: device.id } });
      showNotice(t('devices.signedOut', { name: device.name }));
      void read.refetch();
    } catch (cause) {
      showFailure(failureText(t, cause as AppError | SerializedError));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="manage" data-testid="my-devices">
      <h2 className="manage__title">{t('devices.myTitle')}</h2>
      <ReadState answer={read.answer} error={read.error}>
        {(devices) => (
          <DevicesTable
            devices={devices}
            showUser={false}
            actions={(device) =>
              device.openSessions > 0 && !device.revokedAt ? (
                <Button size="small" icon="log-out" text={t('devices.signOut')} loading={busy === device.id} onClick={() => void signOut(device)} data-testid="device-sign-out" />
              ) : null
            }
          />
        )}
      </ReadState>
    </section>
  );
}
