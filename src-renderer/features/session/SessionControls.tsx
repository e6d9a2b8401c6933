import { useState } from 'react';
import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { AppError } from '../../../src-shared/errors';
import { signOut, useSessionQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { useActionFailure } from '../../app/useActionFailure';
import { ArchiveCacheDialog, ArchiveCacheMenuItem } from '../archive/ArchiveCacheSetting';

/** The user menu of the top bar: who is signed in, and the way out. */
export function SessionControls() {
  const { t } = useTranslation();
  const { data: session } = useSessionQuery();
  const dispatch = useAppDispatch();
  const [leaving, setLeaving] = useState(false);
  const [cacheOpen, setCacheOpen] = useState(false);
  const onFailure = useActionFailure();
  const navigate = useNavigate();
  const leave = () => {
    setLeaving(true);
    // Once signed out this control is gone (the sign-in screen replaces the app): only a failure comes back here.
    dispatch(signOut()).catch((error: AppError) => {
      setLeaving(false);
      onFailure(error);
    });
  };
  const menu = (
    <Menu aria-label={t('mainWindow.userMenu')}>
      <ArchiveCacheMenuItem onOpen={() => setCacheOpen(true)} />
      <MenuItem data-testid="my-devices-menu" icon="mobile-phone" text={t('app.myDevices')} onClick={() => void navigate('/devices')} />
      <MenuItem data-testid="sign-out" icon="log-out" text={t('app.signOut')} disabled={leaving} onClick={leave} />
    </Menu>
  );
  return (
    <>
      <PopoverNext content={menu} placement="bottom-end">
        <Button
          data-testid="user-menu"
          variant="minimal"
          icon="user"
          endIcon="caret-down"
          loading={leaving}
          text={session?.signedIn ? <span data-user-data>{session.user.displayName}</span> : undefined}
          aria-label={t('mainWindow.userMenu')}
        />
      </PopoverNext>
      {cacheOpen && <ArchiveCacheDialog onClose={() => setCacheOpen(false)} />}
    </>
  );
}
