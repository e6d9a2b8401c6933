// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import type { AuditEvent } from '../../src-shared/api/audit';
import type { ChannelRequest, SessionInfo } from '../../src-shared/ipc/channels';
import { createAppStore } from '../../src-renderer/app/store';
import { AuditScreen } from '../../src-renderer/features/audit/AuditScreen';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, Refusal, signedInStaff } from './support/fake-bridge';

// The audit screen (issue 32, item 4) on a fake core: the filters reach the server's query, the
// list pages, the chain's check shows its verdict, and users who are not administrators (or a
// core offline) see why there is nothing.

/** What the screen asks the core to send to the server. */
type OnlineCallRequest = ChannelRequest<'online.call'>;

initI18n('en');
afterEach(cleanup);
afterAll(clearNotices, 10_000);
beforeEach(() => i18n.changeLanguage('en'));

const admin: SessionInfo = {
  signedIn: true,
  serverUrl: 'http://127.0.0.1:8787',
  user: { id: 'u-admin', username: 'admin', displayName: 'Admin', role: 'admin', departmentId: 'd-legal', departmentName: 'Legal' },
};

const event = (seq: number): AuditEvent => ({
  seq, userId: 'u-alice', userName: 'Alice', device: 'laptop-7', entity: 'contract', entityId: `0190c0de-0000-7000-8000-0000000000${String(seq).padStart(2, '0')}`,
  action: 'contract.update', changes: { name: { before: 'a', after: 'b' }, 'formValues.remark': { before: null, after: 'r' } },
  editedAt: '2026-11-20T07:00:00.000Z', appliedAt: '2026-11-20T08:00:00.000Z', mutationId: 'm', requestId: null, prevHash: '0', hash: '1',
});

function renderScreen(session: SessionInfo, onlineCall: (request: OnlineCallRequest) => unknown) {
  const { bridge, calls } = fakeBridge({ 'session.get': () => session, 'online.call': onlineCall as never });
  const router = createMemoryRouter([{ path: '/settings/audit', element: <AuditScreen /> }], { initialEntries: ['/settings/audit'] });
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
  return calls;
}

const serverAnswers = (request: OnlineCallRequest) => {
  if (request.endpoint === 'auditSettings') return { retentionDays: 3650 };
  if (request.endpoint === 'auditVerify') return { intact: false, checked: 41, fromSeq: 1, problem: { seq: 42, kind: 'changed', message: 'event 42 was changed after it was recorded' } };
  const pageNum = Number(request.query?.pageNum);
  return { list: pageNum === 1 ? [event(250), event(249)] : [event(150)], count: 250 };
};

describe('audit screen', () => {
  it('lists the events, pages, and sends the filters to the server', async () => {
    const calls = renderScreen(admin, serverAnswers);
    expect(await screen.findAllByTestId('audit-event')).toHaveLength(2);
    expect(screen.getAllByText('name, formValues.remark')).toHaveLength(2);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByTestId('audit-next'));
    await waitFor(() => expect(screen.getAllByTestId('audit-event')).toHaveLength(1));
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();

    fireEvent.change(screen.getByTestId('audit-filter-device'), { target: { value: 'laptop-7' } });
    fireEvent.change(screen.getByTestId('audit-filter-entity'), { target: { value: 'contract' } });
    // The app's date input (never the browser's): a day typed as ISO is taken as typed.
    fireEvent.change(document.getElementById('audit-filter-from')!, { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByTestId('audit-filter-apply'));
    await waitFor(() => expect(screen.getByText('Page 1 of 3')).toBeTruthy());
    const last = (calls('online.call') as OnlineCallRequest[]).filter((c) => c.endpoint === 'auditEvents').at(-1)!;
    expect(last.query).toEqual({ pageNum: 1, pageSize: 100, device: 'laptop-7', entity: 'contract', from: new Date('2026-11-01T00:00:00').toISOString() });
  });

  it('shows the verdict of the chain check, naming the first event that was changed', async () => {
    renderScreen(admin, serverAnswers);
    fireEvent.click(await screen.findByTestId('audit-verify'));
    const verdict = await screen.findByTestId('audit-verification');
    expect(verdict.textContent).toContain('The chain is broken at event 42');
  });

  it('tells a user who is not an administrator, and asks the server nothing', async () => {
    const calls = renderScreen(signedInStaff, serverAnswers);
    expect(await screen.findByText('Only administrators read the audit trail.')).toBeTruthy();
    expect(calls('online.call')).toEqual([]);
  });

  it('says why there is no list while the server cannot be reached', async () => {
    renderScreen(admin, () => new Refusal({ code: 'offline', message: 'offline' }));
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
    expect(screen.queryByTestId('audit-event')).toBeNull();
  });
});
