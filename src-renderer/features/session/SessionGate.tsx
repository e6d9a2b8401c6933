import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSessionQuery } from '../../api/api';
import { AppErrorScreen, LoadingScreen } from '../../app/StatusScreens';
import { errorText } from '../../i18n/errorText';
import { SignInScreen } from './SignInScreen';

/**
 * The app proper only for a signed-in user; everyone else gets the sign-in screen. Leaving a
 * session goes back to the home screen, so the next user starts at the ledger, not at the deep
 * link (a contract of the previous user's) the window was showing.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: session, error } = useSessionQuery();
  const signedIn = session?.signedIn;
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (signedIn === undefined) return;
    if (wasSignedIn.current && !signedIn) void navigate('/', { replace: true });
    wasSignedIn.current = signedIn;
  }, [signedIn, navigate]);
  if (!session) return error ? <AppErrorScreen message={errorText(t, error)} /> : <LoadingScreen />;
  return session.signedIn ? children : <SignInScreen lastServerUrl={session.serverUrl} problem={session.problem} />;
}
