import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { LanguageGate } from '../i18n/LanguageGate';
import { ConnectionNotice } from './ConnectionNotice';
import { ErrorBoundary } from './ErrorBoundary';
import { routes } from './routes';
import type { AppStore } from './store';

// Browser history works over http:// (the web host) and app:// (Electron): both hosts answer
// any path with index.html, so deep links open the right screen.
const router = createBrowserRouter(routes);

export function App({ store }: { store: AppStore }) {
  return (
    <ErrorBoundary>
      <Provider store={store}>
        <LanguageGate>
          <ConnectionNotice />
          <RouterProvider router={router} />
        </LanguageGate>
      </Provider>
    </ErrorBoundary>
  );
}
