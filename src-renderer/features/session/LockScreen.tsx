import { useEffect, useState, type FormEvent } from 'react';
import { Button, Callout, Card, FormGroup, H3, Icon, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { toAppError, type AppError } from '../../../src-shared/errors';
import type { SessionInfo } from '../../../src-shared/ipc/channels';
import { signOut, useUnlockMutation } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { LanguageMenu } from '../settings/LanguageMenu';

type LockedSession = Extract<SessionInfo, { signedIn: true }> & { locked: NonNullable<Extract<SessionInfo, { signedIn: true }>['locked']> };

/**
 * A wait the core gives as "this many seconds from now" (its clock may not be the window's),
 * counted down by the window's own clock: the seconds left, and how to start a new wait.
 */
function useCountdown(initialSeconds: number): [left: number, wait: (seconds: number) => void] {
  const [until, setUntil] = useState(() => Date.now() + initialSeconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [left]);
  const wait = (seconds: number) => {
    const at = Date.now();
    setNow(at);
    setUntil(at + seconds * 1000);
  };
  return [left, wait];
}

/**
 * The offline lock (issue 32): the device has not reached the server for longer than its limit,
 * so nothing of the app shows until its user's password is given (checked by the core against the
 * verifier kept at the last online sign-in). A wrong one says how long to wait; signing out
 * instead leads to the sign-in screen.
 */
export function LockScreen({ session }: { session: LockedSession }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const onFailure = useActionFailure();
  const [unlock, { isLoading, error }] = useUnlockMutation();
  const [password, setPassword] = useState('');
  const [leaving, setLeaving] = useState(false);
  const refusal = error ? toAppError(error) : undefined;
  // The wait the core gave last: with the session (a wrong try before a restart), then with each refused try.
  const [wait, startWait] = useCountdown(session.locked.waitSeconds);
  const { user, locked } = session;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '' || wait > 0) return;
    void unlock({ password }).then((result) => {
      if (!('error' in result)) return;
      setPassword('');
      const refused = toAppError(result.error);
      if (refused.reason?.key === 'unlockWait') startWait(Number(refused.reason.params?.seconds ?? 0));
    });
  };
  const leave = () => {
    setLeaving(true);
    dispatch(signOut()).catch((failure: AppError) => {
      setLeaving(false);
      onFailure(failure);
    });
  };

  return (
    <div className="app-centered" data-testid="offline-lock">
      <Card className="sign-in offline-lock" elevation={2}>
        <div className="sign-in__header">
          <H3>
            <Icon icon="lock" className="offline-lock__icon" />
            {t('offlineLock.title')}
          </H3>
          <LanguageMenu />
        </div>
        <p data-testid="offline-lock-user">
          {t(locked.canUnlock ? 'offlineLock.body' : 'offlineLock.bodySignIn', { days: locked.days, name: user.displayName, username: user.username })}
        </p>
        {locked.canUnlock && (
          <form onSubmit={submit} noValidate>
            <FormGroup label={t('offlineLock.password')} labelFor="offline-lock-password">
              <InputGroup
                id="offline-lock-password"
                type="password"
                autoComplete="current-password"
                autoFocus
                value={password}
                onValueChange={setPassword}
                data-testid="offline-lock-password"
              />
            </FormGroup>
            {(refusal || wait > 0) && (
              <Callout intent={refusal?.code === 'invalid_credentials' ? 'danger' : 'warning'} icon="time" role="alert" data-testid="offline-lock-refusal">
                {[
                  refusal?.code === 'invalid_credentials' ? t('offlineLock.wrong') : refusal && refusal.reason?.key !== 'unlockWait' ? errorText(t, refusal) : null,
                  wait > 0 ? t('offlineLock.wait', { seconds: wait }) : null,
                ]
                  .filter(Boolean)
                  .join(' ')}
              </Callout>
            )}
            <Button
              type="submit"
              intent="primary"
              fill
              className="sign-in__submit"
              loading={isLoading}
              disabled={password === '' || wait > 0}
              text={t('offlineLock.unlock')}
              data-testid="offline-lock-unlock"
            />
          </form>
        )}
        <Button variant="minimal" fill className="sign-in__submit" loading={leaving} text={t('offlineLock.signOutInstead')} onClick={leave} data-testid="offline-lock-sign-out" />
      </Card>
    </div>
  );
}
