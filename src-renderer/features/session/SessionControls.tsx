import { useState } from 'react';
import { Button, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import { signOut, useSessionQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { useActionFailure } from '../../app/useActionFailure';

/** Who is signed in, and the way out. */
export function SessionControls() {
  const { t } = useTranslation();
  const { data: session } = useSessionQuery();
  const dispatch = useAppDispatch();
  const [leaving, setLeaving] = useState(false);
  const onFailure = useActionFailure();
  const leave = () => {
    setLeaving(true);
    // Once signed out this control is gone (the sign-in screen replaces the app): only a failure comes back here.
    dispatch(signOut()).catch((error: AppError) => {
      setLeaving(false);
      onFailure(error);
    });
  };
  return (
    <>
      {session?.signedIn && (
        <span className="session-user">
          <Icon icon="user" />
          {session.user.displayName}
        </span>
      )}
      <Button
        data-testid="sign-out"
        variant="minimal"
        icon="log-out"
        text={t('app.signOut')}
        loading={leaving}
        onClick={leave}
      />
    </>
  );
}
