// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src-shared/api/audit';
import type { Device } from '../../src-shared/api/devices';
import type { ChannelRequest } from '../../src-shared/ipc/channels';
import { createAppStore } from '../../src-renderer/app/store';
import { ContractAuditEvents } from '../../src-renderer/features/audit/ContractAuditEvents';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, Refusal } from './support/fake-bridge';

// A contract's audit events on its history tab (issue 32, item 4): read online, newest first;
// offline the tab says the trail shows once the server can be reached.

initI18n('en');
afterEach(cleanup);
beforeEach(() => i18n.changeLanguage('en'));

const contractId = '0190c0de-0000-7000-8000-0000000000c1';
const event = (seq: number, action: string): AuditEvent => ({
  seq, userId: 'u-alice', userName: 'Alice', device: 'laptop-7', entity: 'contract', entityId: contractId, action,
  changes: { name: { before: 'a', after: 'b' } }, editedAt: null, appliedAt: '2026-11-20T08:00:00.000Z', mutationId: null, requestId: 'r', prevHash: '0', hash: '1',
});

/** The user's own devices as the server lists them ('myDevices'): the one asking is current. */
const device = (id: string, name: string, current: boolean): Device => ({
  id, deviceId: id, current, userId: 'u-alice', username: 'alice', userDisplayName: 'Alice', name, platform: 'linux', appVersion: '1.0.0',
  firstSeenAt: '2026-11-01T08:00:00.000Z', lastSeenAt: '2026-11-20T08:00:00.000Z', openSessions: 1, revokedAt: null, revokedReason: null, offlineLockDays: null,
});
const myDevices = [device('0190c0de-0000-7000-8000-0000000000e1', 'Alice laptop', true), device('0190c0de-0000-7000-8000-0000000000e2', 'Alice tablet', false)];

function renderEvents(onlineCall: (request: ChannelRequest<'online.call'>) => unknown, formLabel?: (fieldId: string) => string | undefined) {
  const { bridge, calls } = fakeBridge({
    'online.call': onlineCall as never,
    'cached.read': (request) => ({ value: request.endpoint === 'myDevices' ? myDevices : [], asOf: '2026-11-20T08:00:00.000Z', offline: false }),
  });
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <ContractAuditEvents contractId={contractId} formLabel={formLabel} />
      </I18nextProvider>
    </Provider>,
  );
  return calls;
}

describe('contract audit events', () => {
  it('lists the contract\'s events from the server, newest first', async () => {
    const calls = renderEvents(() => ({ list: [event(3, 'contract.create'), event(9, 'contract.update')] }));
    const rows = await screen.findAllByTestId('contract-audit-event');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Edit contract'), expect.stringContaining('Create contract')]);
    expect(rows.map((row) => row.textContent).join()).not.toContain('contract.');
    expect(calls('online.call')).toMatchObject([{ endpoint: 'contractAuditEvents', params: { id: contractId } }]);
  });

  it("names the changed fields in the user's words: a form field by the template's label, a row's field without its id", async () => {
    await i18n.changeLanguage('zh-CN');
    const changes = {
      'formValues.remark_1': { before: 'a', after: 'b' },
      'formValues.other': { before: null, after: 'c' },
      'performanceTask:0190c0de-0000-7000-8000-0000000000d1/status': { before: 'pending', after: 'finished' },
    };
    renderEvents(() => ({ list: [{ ...event(4, 'contract.update'), changes }] }), (fieldId) => (fieldId === 'remark_1' ? '交付备注' : undefined));
    const cell = await screen.findByTestId('contract-audit-changes');
    expect(cell.textContent).toBe('交付备注, 表单字段, 履约任务 · 状态');
    expect(cell.title).toBe(['交付备注: a → b', '表单字段: （空） → c', '履约任务 · 状态: pending → finished'].join('\n'));
  });

  it('names the device in words, never by its id: this device, one of the user\'s by its name, any other as another device', async () => {
    const on = (seq: number, deviceId: string) => ({ ...event(seq, 'contract.update'), device: deviceId });
    const list = [on(1, myDevices[0]!.id), on(2, myDevices[1]!.id), on(3, '0190c0de-0000-7000-8000-0000000000e3'), on(4, 'session:0190c0de-0000-7000-8000-0000000000e4')];
    renderEvents(() => ({ list }));
    await screen.findByText('Alice tablet');
    expect(screen.getAllByTestId('contract-audit-device').map((cell) => cell.textContent)).toEqual(['Another device', 'Another device', 'Alice tablet', 'This device']);
    cleanup();
    await i18n.changeLanguage('zh-CN');
    renderEvents(() => ({ list }));
    await screen.findByText('Alice tablet');
    expect(screen.getAllByTestId('contract-audit-device').map((cell) => cell.textContent)).toEqual(['其他设备', '其他设备', 'Alice tablet', '本机']);
    expect(document.body.innerHTML).not.toMatch(/0190c0de/);
  });

  it('says the trail shows once the server can be reached, while offline', async () => {
    renderEvents(() => new Refusal({ code: 'offline', message: 'offline' }));
    expect((await screen.findByTestId('contract-audit-unavailable')).textContent).toBe('The audit trail is read from the server: it shows once the server can be reached.');
    expect(screen.queryByTestId('contract-audit-event')).toBeNull();
  });
});
