import { Button, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSessionQuery, useSignOutMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';

/** Who is signed in, and the way out. */
export function SessionControls() {
  const { t } = useTranslation();
  const { data: session } = useSessionQuery();
  const [signOut, { isLoading }] = useSignOutMutation();
  const onFailure = useActionFailure();
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
        loading={isLoading}
        onClick={() => void signOut().unwrap().catch(onFailure)}
      />
    </>
  );
}
