import { AdminDevicesScreen } from '../features/devices/AdminDevicesScreen';
import { MyDevicesScreen } from '../features/devices/MyDevicesScreen';
import { Navigate, type RouteObject } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { ReplicaContractDetail } from '../../src-shared/ipc/drafting';
import { specRoutePaths, type SpecRoute } from '../../src-shared/routes';
import { ContractApprovalActions } from '../features/contracts/ApprovalActions';
import { ContractPage } from '../features/contracts/ContractPage';
import { CreateContractScreen } from '../features/contracts/CreateContractScreen';
import { TemplateApprovalScreen } from '../features/contracts/TemplateApprovalScreen';
import { TemplateDetailScreen } from '../features/contracts/TemplateDetailScreen';
import { SceneLedgerScreen } from '../features/scenes/SceneLedgerScreen';
import { CounterpartiesScreen } from '../features/counterparties/CounterpartiesScreen';
import { ExternalDetailScreen } from '../features/counterparties/ExternalDetailScreen';
import { IpDetailPage } from '../features/ip/IpDetailPage';
import { IpScreen } from '../features/ip/IpScreen';
import { LegalScreen } from '../features/legal/LegalScreen';
import { NumberingScreen } from '../features/numbering/NumberingScreen';
import { DefinitionsScreen } from '../features/definitions/DefinitionsScreen';
import { OrganisationScreen } from '../features/organisation/OrganisationScreen';
import { AuditScreen } from '../features/audit/AuditScreen';
import { ProjectPage } from '../features/projects/ProjectPage';
import { ProjectsScreen } from '../features/projects/ProjectsScreen';
import { TemplateEditorScreen } from '../features/templates/TemplateEditorScreen';
import { TemplatesScreen } from '../features/templates/TemplatesScreen';
import { SessionGate } from '../features/session/SessionGate';
import { AppShell } from './AppShell';
import { NotFoundScreen, RouteErrorScreen } from './RouteScreens';

/** Submit, approve and reject among the contract page's actions (spec 4). */
const approvalActions = (contract: ReplicaContractDetail) => <ContractApprovalActions contract={contract} />;

/** A screen for every spec route (a route added to the spec without one is a type error). */
const specScreens: Record<SpecRoute, ReactNode> = {
  '/standingBook/create': <CreateContractScreen />,
  // One contract page for the three routes that show a contract (UI.md "The contract page").
  '/standingBook/detail': <ContractPage approvalActions={approvalActions} />,
  '/myContract/detail': <ContractPage approvalActions={approvalActions} />,
  '/contractApproval/detail': <ContractPage approvalActions={approvalActions} />,
  '/template/detail': <TemplateDetailScreen />,
  '/templateApproval/detail': <TemplateApprovalScreen />,
  '/manage/oppositeParty/externalDetail': <ExternalDetailScreen />,
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
      { index: true, element: <SceneLedgerScreen /> },
      // Spec 2: every route the product defines.
      ...specRoutePaths.map((path) => ({ path, element: specScreens[path] })),
      { path: 'counterparties', element: <CounterpartiesScreen /> },
      // A host that loads the file by name (app://…/index.html) still lands on the home screen.
      { path: 'index.html', element: <Navigate to="/" replace /> },
      { path: '*', element: <NotFoundScreen /> },
      // Issue 15: projects, numbering and intellectual property.
      { path: 'projects', element: <ProjectsScreen /> },
      { path: 'projects/:id', element: <ProjectPage /> },
      { path: 'settings/numbering', element: <NumberingScreen /> },
      // Issue 28: performance definitions and the organisation settings.
      { path: 'settings/performances', element: <DefinitionsScreen /> },
      { path: 'settings/organisation', element: <OrganisationScreen /> },
      // Issue 32: devices, the user's own and the organisation's.
      { path: 'devices', element: <MyDevicesScreen /> },
      { path: 'settings/devices', element: <AdminDevicesScreen /> },
      // Issue 32: the audit trail.
      { path: 'settings/audit', element: <AuditScreen /> },
      { path: 'ip', element: <IpScreen /> },
      { path: 'ip/:id', element: <IpDetailPage /> },
      { path: 'legal', element: <LegalScreen /> },
      // Issue 29: templates written, copied and submitted in the app.
      { path: 'templates', element: <TemplatesScreen /> },
      { path: 'templates/edit', element: <TemplateEditorScreen /> },
    ],
  },
];
