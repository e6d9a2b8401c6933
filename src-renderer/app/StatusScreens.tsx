import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** Shown while the core has not answered yet: a spinner, never a blank page. */
export function LoadingScreen() {
  return (
    <div className="app-centered">
      <Spinner />
    </div>
  );
}

/** A plain message and a way out (reload) for anything the app cannot recover from by itself. */
export function AppErrorScreen({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="app-centered" data-testid="app-error" role="alert">
      <NonIdealState
        icon="error"
        title={message}
        action={<Button intent="primary" icon="refresh" text={t('app.reload')} onClick={() => window.location.reload()} />}
      />
    </div>
  );
}
