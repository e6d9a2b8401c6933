import { useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../src-shared/api/devices';
import type { AppError } from '../../../src-shared/errors';
import { showFailure, showNotice } from '../../app/toaster';
import { failureText } from '../manage/issues';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { DevicesTable } from './DevicesTable';

/**
 * One administrator's write about a device from its dialog: says it is done and closes, or says
 * why not and keeps the dialog open to try again.
 */
function useDeviceWrite(onDone: () => void, onClose: () => void) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  async function send(write: () => Promise<unknown>, notice: string) {
    setSending(true);
    try {
      await write();
      showNotice(notice);
      onDone();
      onClose();
    } catch (cause) {
      showFailure(failureText(t, cause as AppError | SerializedError));
      setSending(false);
    }
  }
  return { sending, send };
}

/** Asks for the reason the device will show before revoking it. */
function RevokeAlert({ device, onClose, onRevoked }: { device: Device; onClose(): void; onRevoked(): void }) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [reason, setReason] = useState('');
  const { sending, send } = useDeviceWrite(onRevoked, onClose);
  const revoke = () => send(() => write('deviceRevoke', { params: { id: device.id }, body: { reason } }), t('devices.revoked', { name: device.name }));
  return (
    <Dialog isOpen icon="disable" title={t('devices.revokeTitle', { name: device.name, user: device.userDisplayName })} onClose={onClose} data-testid="device-revoke-dialog">
      <DialogBody>
        <p>{t('devices.revokeBody')}</p>
        <FormGroup label={t('devices.revokeReason')} labelFor="device-revoke-reason">
          <TextArea id="device-revoke-reason" fill maxLength={500} value={reason} onChange={(event) => setReason(event.currentTarget.value)} data-testid="device-revoke-reason" />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('devices.cancel')} onClick={onClose} />
            {/* The reason is what the user of the device reads: it may not be empty. */}
            <Button intent="danger" text={t('devices.revokeConfirm')} loading={sending} disabled={reason.trim() === ''} onClick={() => void revoke()} data-testid="device-revoke-confirm" />
          </>
        }
      />
    </Dialog>
  );
}

/**
 * Sets a device's own offline lock: empty follows the organisation's, a number may only be shorter
 * (the server refuses a longer one too, with the same words).
 */
function OfflineLockDialog({ device, organisationDays, onClose, onSaved }: { device: Device; organisationDays: number; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [typed, setTyped] = useState(device.offlineLockDays === null ? '' : String(device.offlineLockDays));
  const { sending, send } = useDeviceWrite(onSaved, onClose);
  const days = typed.trim() === '' ? null : Number(typed);
  const invalid = days !== null && (!Number.isInteger(days) || days < 1 || days > organisationDays);
  const save = () => send(() => write('deviceOfflineLock', { params: { id: device.id }, body: { offlineLockDays: days } }), t('devices.offlineLock.saved', { name: device.name }));
  return (
    <Dialog isOpen icon="lock" title={t('devices.offlineLock.title', { name: device.name, user: device.userDisplayName })} onClose={onClose} data-testid="device-offline-lock-dialog">
      <DialogBody>
        <p>{t('devices.offlineLock.body', { days: organisationDays })}</p>
        <FormGroup
          label={t('devices.offlineLock.label')}
          labelFor="device-offline-lock-days"
          intent={invalid ? 'danger' : 'none'}
          helperText={invalid ? t('devices.offlineLock.invalid', { days: organisationDays }) : undefined}
        >
          <InputGroup id="device-offline-lock-days" inputMode="numeric" value={typed} intent={invalid ? 'danger' : 'none'} onValueChange={setTyped} style={{ width: 90 }} data-testid="device-offline-lock-days" />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('devices.cancel')} onClick={onClose} />
            <Button intent="primary" text={t('devices.offlineLock.save')} loading={sending} disabled={invalid} onClick={() => void save()} data-testid="device-offline-lock-save" />
          </>
        }
      />
    </Dialog>
  );
}

/**
 * The organisation's devices (settings, administrators): filter by user, revoke one after
 * confirming, shorten one's offline lock.
 */
export function AdminDevicesScreen() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const isAdmin = user?.role === 'admin';
  const [userId, setUserId] = useState('');
  const all = useServerRead('adminDevices', {}, { skip: !isAdmin });
  const read = useServerRead('adminDevices', { query: { userId } }, { skip: !isAdmin });
  const [revoking, setRevoking] = useState<Device | null>(null);
  // The organisation's days are taken when the dialog opens: a refetch of them meanwhile must not
  // close and reopen it under the user's hands.
  const [locking, setLocking] = useState<{ device: Device; organisationDays: number } | null>(null);
  const organisation = useServerRead('organisationSettings', {}, { skip: !isAdmin });
  const organisationDays = organisation.answer?.value.offlineLockDays;
  const users = new Map((all.answer?.value ?? []).map((device) => [device.userId, device.userDisplayName]));

  return (
    <section className="manage" data-testid="admin-devices">
      <h2 className="manage__title">{t('devices.adminTitle')}</h2>
      {!isAdmin ? (
        <Callout compact icon="lock">{t('devices.adminsOnly')}</Callout>
      ) : (
        <>
          <FormGroup inline label={t('devices.filterUser')} labelFor="devices-user-filter">
            <HTMLSelect id="devices-user-filter" value={userId} onChange={(event) => setUserId(event.currentTarget.value)} data-testid="devices-user-filter">
              <option value="">{t('devices.allUsers')}</option>
              {[...users].map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <ReadState answer={read.answer} error={read.error}>
            {(devices) => (
              <DevicesTable
                devices={devices}
                showUser
                organisationLockDays={organisationDays}
                actions={(device) =>
                  device.revokedAt ? null : (
                    <>
                      {organisationDays !== undefined && (
                        <Button size="small" icon="lock" text={t('devices.offlineLock.edit')} onClick={() => setLocking({ device, organisationDays })} data-testid="device-offline-lock-edit" />
                      )}
                      <Button size="small" intent="danger" icon="disable" text={t('devices.revoke')} onClick={() => setRevoking(device)} data-testid="device-revoke" />
                    </>
                  )
                }
              />
            )}
          </ReadState>
          {locking && (
            <OfflineLockDialog device={locking.device} organisationDays={locking.organisationDays} onClose={() => setLocking(null)} onSaved={() => void read.refetch()} />
          )}
          {revoking && (
            <RevokeAlert
              device={revoking}
              onClose={() => setRevoking(null)}
              onRevoked={() => {
                void read.refetch();
                void all.refetch();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
