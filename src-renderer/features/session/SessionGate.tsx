import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSessionQuery } from '../../api/api';
import { AppErrorScreen, LoadingScreen } from '../../app/StatusScreens';
import { showWarning } from '../../app/toaster';
import { errorText, reasonText } from '../../i18n/errorText';
import { DeviceRevokedScreen } from '../devices/DeviceRevokedScreen';
import { LockScreen } from './LockScreen';
import { SignInScreen } from './SignInScreen';

/**
 * The app proper only for a signed-in user whose device is not locked (the offline lock); everyone
 * else gets the sign-in screen. Leaving a session goes back to the home screen, so the next user
 * starts at the ledger, not at the deep link (a contract of the previous user's) the window was
 * showing.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: session, error } = useSessionQuery();
  const signedIn = session?.signedIn;
  const wasSignedIn = useRef(false);
  const notice = session?.signedIn ? session.notice : undefined;
  const shownNotice = useRef<string | null>(null);
  const [revocationRead, setRevocationRead] = useState(false);
  // Told once per window: the local data was rebuilt (its key was lost), with the unsent edits that went with it.
  useEffect(() => {
    if (!notice || shownNotice.current === notice.code) return;
    shownNotice.current = notice.code;
    showWarning([t(`errors.${notice.code}`, { defaultValue: notice.message }), notice.reason ? reasonText(t, notice.reason) : null].filter(Boolean).join(' '));
  }, [notice, t]);
  useEffect(() => {
    if (signedIn === undefined) return;
    if (wasSignedIn.current && !signedIn) void navigate('/', { replace: true });
    wasSignedIn.current = signedIn;
  }, [signedIn, navigate]);
  if (!session) return error ? <AppErrorScreen message={errorText(t, error)} /> : <LoadingScreen />;
  // The offline lock hides the whole app, its chrome included, until the password opens it.
  if (session.signedIn) return session.locked ? <LockScreen session={{ ...session, locked: session.locked }} /> : children;
  // A revoked device says why on a screen of its own before the sign-in screen (which would refuse it again).
  if (session.problem?.code === 'device_revoked' && !revocationRead) return <DeviceRevokedScreen refusal={session.problem} onContinue={() => setRevocationRead(true)} />;
  return <SignInScreen lastServerUrl={session.serverUrl} problem={session.problem} />;
}
