// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearNotices } from '../../../src-renderer/app/toaster';
import type { Bridge, ChannelResponse } from '../../../src-shared/ipc/channels';
import { bankAccountProblem, counterpartyNameProblem } from '../../../src-shared/rules/counterparties';
import { createAppStore } from '../../../src-renderer/app/store';
import { CounterpartiesScreen } from '../../../src-renderer/features/counterparties/CounterpartiesScreen';
import { ExternalDetailScreen } from '../../../src-renderer/features/counterparties/ExternalDetailScreen';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';
import { fakeBridge } from '../support/fake-bridge';

// The counterparty rules (spec 5) and the organisation-share rule (spec 2): an organisation-share
// environment offers no party detail link in the lists and does not show the detail route.

initI18n('en');
afterEach(cleanup);
// The app's toasts outlive the screens: gone before the environment is.
afterAll(clearNotices, 10_000);

const partyId = '0190c0de-0000-7000-8000-0000000000a1';
const page: ChannelResponse<'counterparties.list'> = {
  value: {
    count: 1,
    list: [
      {
        id: partyId, type: 2, subtype: 1, name: 'Harbour Logistics Ltd', idNumber: '91330200MA2AB1234X', address: 'Ningbo', bank: 'Bank of Ningbo',
        account: 'ACC-2024_0001', updaterName: 'Admin', updateTime: '2026-11-20T08:00:00.000Z', rating: 40, cooperationCount: 3,
        totalAmount: [{ amount: 120_000, unit: 'CNY' }], averageScore: 87.5, riskCount: 2,
      },
    ],
  },
  asOf: '2026-11-20T08:00:00.000Z',
  offline: false,
};

function renderAt(bridge: Bridge, path: string) {
  const router = createMemoryRouter(
    [
      { path: '/counterparties', element: <CounterpartiesScreen /> },
      { path: '/manage/oppositeParty/externalDetail', element: <ExternalDetailScreen /> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
}

const appInfo = (organizationShare: boolean) => () => ({ version: 'test', host: 'web' as const, systemLocale: 'en-US', organizationShare });

describe('counterparty rules', () => {
  it('requires the name', () => {
    expect(counterpartyNameProblem('  ')).toBe('please enter the name');
    expect(counterpartyNameProblem('ACME')).toBeNull();
  });

  it('takes 9 to 24 letters, digits, hyphens, dashes and underscores as a bank account', () => {
    for (const ok of ['123456789', 'ACC-2024_0001', 'a'.repeat(24), '1234–5678—9']) expect(bankAccountProblem(ok)).toBeNull();
    for (const bad of ['12345678', 'a'.repeat(25), '1234 56789', '123456789!', '']) expect(bankAccountProblem(bad)).toBe('please enter 9-24 characters');
  });
});

describe('the organisation-share rule', () => {
  it('links an outer party to its detail outside organisation share', async () => {
    const { bridge } = fakeBridge({ 'app.info': appInfo(false), 'counterparties.list': () => page });
    renderAt(bridge, '/counterparties');
    screen.getByTestId('tab-outer').click();
    await waitFor(() => expect(screen.getByRole('link', { name: /Harbour Logistics Ltd/ }).getAttribute('href')).toBe(`/manage/oppositeParty/externalDetail?id=${partyId}`));
  });

  it('offers no detail link and no detail screen in an organisation-share environment', async () => {
    const { bridge, calls } = fakeBridge({ 'app.info': appInfo(true), 'counterparties.list': () => page });
    renderAt(bridge, '/counterparties');
    screen.getByTestId('tab-outer').click();
    await waitFor(() => expect(screen.getByTestId(`counterparty-row-${partyId}`).textContent).toContain('Harbour Logistics Ltd'));
    expect(screen.queryByRole('link', { name: /Harbour Logistics Ltd/ })).toBeNull();
    cleanup();

    renderAt(bridge, `/manage/oppositeParty/externalDetail?id=${partyId}`);
    await waitFor(() => expect(screen.getByTestId('external-detail-hidden')).toBeTruthy());
    expect(calls('cached.read')).toEqual([]);
  });
});

describe('the monitoring-dimension section of the external detail (spec 6)', () => {
  const detail = {
    id: partyId, type: 2, subtype: 1, subType: 'organization', name: 'Harbour Logistics Ltd', keyword: null, idNumber: null, address: null, contactInfo: null,
    email: null, fax: null, rating: 40, ratingRemark: null, isConnectedTransaction: false, banks: [], contacts: [], registration: null, updaterName: null,
    createTime: '2026-11-20T08:00:00.000Z', updateTime: '2026-11-20T08:00:00.000Z', version: 1, riskCount: 0, refreshTime: null, cooperationCount: 0,
    totalAmount: [], averageScore: null, cooperationContracts: [],
  };
  const monitoring = { list: [{ id: 'm1', dimensionName: 'Litigation', info: 'New lawsuit registered', updateTime: '2026-05-11T02:00:00.000Z' }] };
  const answers = (creditPlatformEnabled: boolean) =>
    fakeBridge({
      'cached.read': (request) => {
        const value = { counterpartExternalDetail: detail, organisationSettings: { creditPlatformEnabled }, counterpartMonitoring: monitoring }[request.endpoint as string];
        return { value, asOf: '2026-11-20T08:00:00.000Z', offline: false };
      },
    });

  it('shows the party’s monitoring results while the credit platform is configured', async () => {
    const { bridge } = answers(true);
    renderAt(bridge, `/manage/oppositeParty/externalDetail?id=${partyId}`);
    await waitFor(() => expect(screen.getByTestId('external-detail-monitoring').textContent).toContain('New lawsuit registered'));
    expect(screen.getByTestId('external-detail-monitoring').textContent).toContain('Monitoring dimensions');
  });

  it('shows no section, and reads no monitoring, while it is off', async () => {
    const { bridge, calls } = answers(false);
    renderAt(bridge, `/manage/oppositeParty/externalDetail?id=${partyId}`);
    await waitFor(() => expect(screen.getByTestId('external-detail-basic')).toBeTruthy());
    await waitFor(() => expect(calls('cached.read')).toContainEqual(expect.objectContaining({ endpoint: 'organisationSettings' })));
    expect(screen.queryByTestId('external-detail-monitoring')).toBeNull();
    expect(calls('cached.read')).not.toContainEqual(expect.objectContaining({ endpoint: 'counterpartMonitoring' }));
  });
});
