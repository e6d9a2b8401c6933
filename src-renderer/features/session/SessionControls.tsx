import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSessionQuery, useSignOutMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';

/** The user menu of the top bar: who is signed in, and the way out. */
export function SessionControls() {
  const { t } = useTranslation();
  const { data: session } = useSessionQuery();
  const [signOut, { isLoading }] = useSignOutMutation();
  const onFailure = useActionFailure();
  const menu = (
    <Menu aria-label={t('mainWindow.userMenu')}>
      <MenuItem
        data-testid="sign-out"
        icon="log-out"
        text={t('app.signOut')}
        disabled={isLoading}
        onClick={() => void signOut().unwrap().catch(onFailure)}
      />
    </Menu>
  );
  return (
    <PopoverNext content={menu} placement="bottom-end">
      <Button
        data-testid="user-menu"
        variant="minimal"
        icon="user"
        endIcon="caret-down"
        loading={isLoading}
        text={session?.signedIn ? session.user.displayName : undefined}
        aria-label={t('mainWindow.userMenu')}
      />
    </PopoverNext>
  );
}
