// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import type { Contract } from '../../src-shared/domain/contract';
import type { Bridge } from '../../src-shared/ipc/channels';
import { createAppStore } from '../../src-renderer/app/store';
import { ContractEditDialog } from '../../src-renderer/features/ledger/ContractEditDialog';
import { SyncIndicator } from '../../src-renderer/features/sync/SyncIndicator';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, syncStatus } from './support/fake-bridge';

// What a new user hit (issue 11): Save offered where nothing can be changed, and 'Sync now'
// saying nothing while offline.

initI18n('en');
afterEach(cleanup);

function renderWith(bridge: Bridge, element: ReactElement) {
  return render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>{element}</I18nextProvider>
    </Provider>,
  );
}

const toasts = () => document.querySelector('.bp6-toast-container')?.textContent ?? '';

const time = '2026-11-21T10:00:00.000Z';
function contract(status: Contract['status']): Contract {
  return {
    id: '0190c0de-0000-7000-8000-0000000000c1', name: 'Steel supply', contractNumber: 'HT-1', status, contractTypeName: null, templateName: null,
    counterpartName: null, amount: null, responsibleUserId: null, responsibleUserName: null, departmentId: null, departmentName: null, signDate: null,
    createTime: time, updateTime: time, version: 1,
  };
}

describe('the ledger’s edit dialog', () => {
  it('offers no Save on an approved contract, where nothing is editable, only Close', async () => {
    const { bridge } = fakeBridge({});
    renderWith(bridge, <ContractEditDialog contract={contract(4)} onClose={() => undefined} />);
    await screen.findByTestId('contract-edit-locked');
    expect(screen.getByTestId('contract-edit-name')).toHaveProperty('disabled', true);
    expect(screen.queryByTestId('contract-edit-save')).toBeNull();
    expect(screen.getByTestId('contract-edit-cancel').textContent).toBe('Close');
  });

  it('offers Save on a draft, whose name may change', async () => {
    const { bridge } = fakeBridge({});
    renderWith(bridge, <ContractEditDialog contract={contract(1)} onClose={() => undefined} />);
    expect((await screen.findByTestId('contract-edit-save')).hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('contract-edit-cancel').textContent).toBe('Cancel');
  });
});

describe('Sync now', () => {
  // First: the toaster is shared by the whole file.
  it('says nothing more when the sync went through', async () => {
    const { bridge, calls } = fakeBridge({ 'sync.now': () => syncStatus({ online: true, lastSyncAt: time }) });
    renderWith(bridge, <SyncIndicator />);
    await userEvent.click(await screen.findByTestId('sync-now'));
    await waitFor(() => expect(calls('sync.now')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('sync-indicator').getAttribute('data-online')).toBe('true'));
    expect(toasts()).not.toContain('Offline');
  });

  it('says the app is offline when the sync it asked for could not reach the server', async () => {
    const { bridge, calls } = fakeBridge({ 'sync.now': () => syncStatus({ online: false, phase: 'offline' }) });
    renderWith(bridge, <SyncIndicator />);
    await userEvent.click(await screen.findByTestId('sync-now'));
    await waitFor(() => expect(toasts()).toContain('Offline: the contract server cannot be reached.'));
    expect(calls('sync.now')).toHaveLength(1);
  });
});
