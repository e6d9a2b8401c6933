import { Navigate, type RouteObject } from 'react-router-dom';
import { specRoutePaths } from '../../src-shared/routes';
import { LedgerScreen } from '../features/ledger/LedgerScreen';
import { SessionGate } from '../features/session/SessionGate';
import { AppShell } from './AppShell';
import { NotFoundScreen, RouteErrorScreen, RoutePlaceholder } from './RouteScreens';

export const routes: RouteObject[] = [
  {
    path: '/',
    element: (
      <SessionGate>
        <AppShell />
      </SessionGate>
    ),
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, element: <LedgerScreen /> },
      // Spec 2: every route the product defines; screens not built yet show a placeholder naming them.
      ...specRoutePaths.map((path) => ({ path, element: <RoutePlaceholder route={path} /> })),
      // A host that loads the file by name (app://…/index.html) still lands on the home screen.
      { path: 'index.html', element: <Navigate to="/" replace /> },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];
