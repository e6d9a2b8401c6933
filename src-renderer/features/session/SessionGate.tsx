import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionQuery } from '../../api/api';
import { AppErrorScreen, LoadingScreen } from '../../app/StatusScreens';
import { errorText } from '../../i18n/errorText';
import { SignInScreen } from './SignInScreen';

/** The app proper only for a signed-in user; everyone else gets the sign-in screen. */
export function SessionGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { data: session, error } = useSessionQuery();
  if (!session) return error ? <AppErrorScreen message={errorText(t, error)} /> : <LoadingScreen />;
  return session.signedIn ? children : <SignInScreen lastServerUrl={session.serverUrl} problem={session.problem} />;
}
