import type { ReactNode } from 'react';
import { HTMLTable, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../src-shared/api/devices';
import { formatDateTime } from '../../i18n/format';
import '../manage/manage.css';

/**
 * Devices as a table: this device marked, each one's state, and the actions a screen offers.
 * `organisationLockDays`, when given, adds the offline lock each device follows (administrators).
 */
export function DevicesTable({ devices, showUser, organisationLockDays, actions }: { devices: Device[]; showUser: boolean; organisationLockDays?: number; actions(device: Device): ReactNode }) {
  const { t, i18n } = useTranslation();
  if (devices.length === 0) return <p className="manage__muted">{t('devices.none')}</p>;
  const state = (device: Device) =>
    device.revokedAt ? (
      <Tag intent="danger" minimal>{t('devices.states.revoked', { reason: device.revokedReason ?? '' })}</Tag>
    ) : device.openSessions > 0 ? (
      <Tag intent="success" minimal>{t('devices.states.signedIn')}</Tag>
    ) : (
      <Tag minimal>{t('devices.states.signedOut')}</Tag>
    );
  return (
    <div className="manage__table">
      <HTMLTable compact striped data-testid="devices-table">
        <thead>
          <tr>
            <th>{t('devices.columns.name')}</th>
            {showUser && <th>{t('devices.columns.user')}</th>}
            <th>{t('devices.columns.platform')}</th>
            <th>{t('devices.columns.appVersion')}</th>
            <th>{t('devices.columns.firstSeen')}</th>
            <th>{t('devices.columns.lastSeen')}</th>
            <th>{t('devices.columns.state')}</th>
            {organisationLockDays !== undefined && <th>{t('devices.columns.offlineLock')}</th>}
            <th>{t('devices.columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((device) => (
            <tr key={device.id} data-testid="device-row" data-device-id={device.id}>
              <td>
                {device.name}{' '}
                {device.current && (
                  <Tag intent="primary" data-testid="this-device">
                    {t('devices.thisDevice')}
                  </Tag>
                )}
              </td>
              {showUser && <td>{device.userDisplayName}</td>}
              <td>{device.platform}</td>
              <td>{device.appVersion}</td>
              <td className="manage__whole">{formatDateTime(device.firstSeenAt, i18n.language)}</td>
              <td className="manage__whole">{formatDateTime(device.lastSeenAt, i18n.language)}</td>
              <td>{state(device)}</td>
              {organisationLockDays !== undefined && (
                <td data-testid="device-offline-lock">
                  {device.offlineLockDays !== null && device.offlineLockDays < organisationLockDays
                    ? t('devices.offlineLock.days', { days: device.offlineLockDays })
                    : t('devices.offlineLock.organisation', { days: organisationLockDays })}
                </td>
              )}
              <td>
                <div className="manage__row-actions">{actions(device)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
