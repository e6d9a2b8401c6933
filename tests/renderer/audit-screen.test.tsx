// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import { maxAuditExportRows, type AuditEvent } from '../../src-shared/api/audit';
import type { Device } from '../../src-shared/api/devices';
import type { ChannelRequest, SessionInfo } from '../../src-shared/ipc/channels';
import { createAppStore } from '../../src-renderer/app/store';
import { AuditScreen } from '../../src-renderer/features/audit/AuditScreen';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, Refusal, signedInStaff, type Answers } from './support/fake-bridge';

// The audit screen (issue 32, item 4) on a fake core: the filters (users and devices picked by
// name) reach the server's query, the list pages, the export of the filtered events asks the core
// and is offered only when there is something to export within the cap, the chain's check shows
// its verdict, and users who are not administrators (or a core offline) see why there is nothing.

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

const person = (id: string, name: string) => ({ id, name, department: { id: 'd-legal', name: 'Legal' } });
const directory = { users: [person('u-alice', 'Alice Wang'), person('u-bob', 'Bob Li'), person('u-carol', 'Carol Chen')], departments: [], fetchedAt: '2026-11-20T08:00:00.000Z', offline: false };
const device = (id: string, name: string, userDisplayName: string): Device => ({
  id, deviceId: id, current: false, userId: 'u', username: 'u', userDisplayName, name, platform: 'win32', appVersion: '1.0.0',
  firstSeenAt: '2026-11-01T08:00:00.000Z', lastSeenAt: '2026-11-20T08:00:00.000Z', openSessions: 1, revokedAt: null, revokedReason: null, offlineLockDays: null,
});
const devices = [device('dev-1', 'Alice laptop', 'Alice Wang'), device('dev-2', 'Bob desktop', 'Bob Li'), device('laptop-7', 'Alice tablet', 'Alice Wang')];

function renderScreen(session: SessionInfo, onlineCall: (request: OnlineCallRequest) => unknown, more: Answers = {}) {
  const { bridge, calls } = fakeBridge({
    'session.get': () => session,
    'online.call': onlineCall as never,
    'directory.get': () => directory,
    'cached.read': () => ({ value: devices, asOf: '2026-11-20T08:00:00.000Z', offline: false }),
    ...more,
  });
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
    // The changed fields in words (a form field by its label where the template is known).
    expect(screen.getAllByText('Name, Form field')).toHaveLength(2);
    // The entity and action in words, not their codes (issue 31).
    expect(screen.getAllByTestId('audit-action').map((cell) => cell.textContent)).toEqual(['Edit contract', 'Edit contract']);
    expect(screen.getAllByTestId('audit-event')[0]!.textContent).toContain('Contract');
    // A device is shown by its name where the devices list knows it.
    await waitFor(() => expect(screen.getAllByText('Alice tablet')).toHaveLength(2));
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByTestId('audit-next'));
    await waitFor(() => expect(screen.getAllByTestId('audit-event')).toHaveLength(1));
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();

    // Users and devices are picked by their names, searched as typed; the filter is the id.
    fireEvent.click(screen.getByTestId('audit-filter-userId'));
    fireEvent.change(await screen.findByTestId('audit-filter-userId-search'), { target: { value: 'bo' } });
    expect(screen.getAllByTestId('audit-filter-userId-option').map((option) => option.textContent)).toEqual(['Bob LiLegal']);
    fireEvent.click(screen.getByText('Bob Li'));
    await waitFor(() => expect(screen.getByTestId('audit-filter-userId').textContent).toBe('Bob Li'));
    fireEvent.click(screen.getByTestId('audit-filter-device'));
    fireEvent.click(await screen.findByText('Alice laptop'));
    await waitFor(() => expect(screen.getByTestId('audit-filter-device').textContent).toBe('Alice laptop'));
    fireEvent.change(screen.getByTestId('audit-filter-entity'), { target: { value: 'contract' } });
    // The app's date input (never the browser's): a day typed as ISO is taken as typed.
    fireEvent.change(document.getElementById('audit-filter-from')!, { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByTestId('audit-filter-apply'));
    await waitFor(() => expect(screen.getByText('Page 1 of 3')).toBeTruthy());
    const last = (calls('online.call') as OnlineCallRequest[]).filter((c) => c.endpoint === 'auditEvents').at(-1)!;
    expect(last.query).toEqual({ pageNum: 1, pageSize: 100, userId: 'u-bob', device: 'dev-1', entity: 'contract', from: new Date('2026-11-01T00:00:00').toISOString() });
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

describe('audit export', () => {
  // Its notices are toasts: gone before the next test reads the screen's alerts.
  afterEach(clearNotices, 10_000);

  it('exports the events of the applied filters through the core, the button disabled while it runs', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:audit');
    URL.revokeObjectURL = vi.fn();
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    let finish: (answer: { rows: number; size: number }) => void = () => undefined;
    const calls = renderScreen(admin, serverAnswers, {
      'audit.export': (() => new Promise((resolve) => (finish = resolve))) as never,
      'audit.exportRead': () => ({ data: btoa('xlsx'), size: 4 }),
    });
    const button = await screen.findByTestId('audit-export');
    expect(screen.getByTestId('audit-export-note').textContent).toBe('Exports the events matching the filters, up to 100,000 events.');
    fireEvent.change(screen.getByTestId('audit-filter-entity'), { target: { value: 'contract' } });
    fireEvent.click(screen.getByTestId('audit-filter-apply'));
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button);
    expect(await screen.findByTestId('audit-export-progress')).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(calls('audit.export')).toEqual([{ exportId: expect.any(String), filters: { entity: 'contract' }, language: 'en' }]);
    finish({ rows: 250, size: 4 });
    await waitFor(() => expect(clicks).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('250 events exported.')).toBeTruthy();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    clicks.mockRestore();
  });

  it('says why the export is refused offline', async () => {
    renderScreen(admin, serverAnswers, { 'audit.export': () => new Refusal({ code: 'offline', message: 'offline' }) });
    const button = await screen.findByTestId('audit-export');
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button);
    expect(await screen.findByText('The audit trail is read from the server: export once the server can be reached.')).toBeTruthy();
  });

  it('offers no export when nothing matches, or more than the cap, and says the cap in Chinese too', async () => {
    const over = maxAuditExportRows + 1;
    renderScreen(admin, (request) => (request.endpoint === 'auditEvents' ? { list: [event(over)], count: over } : serverAnswers(request)));
    const button = await screen.findByTestId('audit-export');
    await screen.findAllByTestId('audit-event');
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('audit-export-note').textContent).toBe('100,001 events match: an export holds at most 100,000. Narrow the filters.');
    await i18n.changeLanguage('zh-CN');
    await waitFor(() => expect(screen.getByTestId('audit-export-note').textContent).toBe('共 100,001 条事件符合条件：一次最多导出 100,000 条，请缩小筛选范围。'));
    cleanup();

    renderScreen(admin, (request) => (request.endpoint === 'auditEvents' ? { list: [], count: 0 } : serverAnswers(request)));
    await screen.findByText('没有符合条件的事件。');
    expect(screen.getByTestId('audit-export').hasAttribute('disabled')).toBe(true);
  });
});
