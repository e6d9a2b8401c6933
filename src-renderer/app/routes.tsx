import { Navigate, type RouteObject } from 'react-router-dom';
import type { ReactNode } from 'react';
import { specRoutePaths, type SpecRoute } from '../../src-shared/routes';
import { ContractDetailScreen } from '../features/contracts/ContractDetailScreen';
import { CreateContractScreen } from '../features/contracts/CreateContractScreen';
import { TemplateDetailScreen } from '../features/contracts/TemplateDetailScreen';
import { LedgerScreen } from '../features/ledger/LedgerScreen';
import { SessionGate } from '../features/session/SessionGate';
import { AppShell } from './AppShell';
import { NotFoundScreen, RouteErrorScreen, RoutePlaceholder } from './RouteScreens';

/** The spec routes whose screens are built; the others show a placeholder naming them. */
const builtScreens: Partial<Record<SpecRoute, ReactNode>> = {
  '/standingBook/create': <CreateContractScreen />,
  '/standingBook/detail': <ContractDetailScreen />,
  '/myContract/detail': <ContractDetailScreen />,
  '/template/detail': <TemplateDetailScreen />,
};

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
      // Spec 2: every route the product defines.
      ...specRoutePaths.map((path) => ({ path, element: builtScreens[path] ?? <RoutePlaceholder route={path} /> })),
      // A host that loads the file by name (app://…/index.html) still lands on the home screen.
      { path: 'index.html', element: <Navigate to="/" replace /> },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];
