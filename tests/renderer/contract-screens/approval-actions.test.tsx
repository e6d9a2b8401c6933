// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ContractStatus } from '../../../src-shared/domain/enums';
import type { AppError } from '../../../src-shared/errors';
import type { Bridge, ChannelName } from '../../../src-shared/ipc/channels';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { createAppStore } from '../../../src-renderer/app/store';
import { clearNotices } from '../../../src-renderer/app/toaster';
import { ContractApprovalActions } from '../../../src-renderer/features/contracts/ApprovalActions';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';

// The contract page's approval steps: only those the shared rules allow this user and status, each
// confirmed first (reject with an optional comment of at most 2000 characters), sent to the core's
// contract.approvalStep, with a toast saying it is queued or why the core refused it.

initI18n('en');
afterEach(cleanup);
// The toasts saying a step is queued outlive the screens: gone before the environment is.
afterAll(clearNotices, 10_000);

const id = '0190c0de-0000-7000-8000-0000000000c1';

function contract(status: ContractStatus): ReplicaContractDetail {
  return {
    id, name: 'Steel supply', contractNumber: 'HT-0001', contractNumberAuto: false, status, contractTypeId: null, templateId: null, formValues: {},
    responsibleUserId: null, departmentId: null, counterpartName: null, amount: null, signDate: null, responsibleUserName: null, departmentName: null,
    templateName: null, archiveFileId: null, createTime: '2026-11-21T10:00:00.000Z', updateTime: '2026-11-21T10:00:00.000Z', version: 1, numberProvisional: false, pending: false, refusal: null, archivePending: false,
  };
}

function renderActions(role: 'admin' | 'staff', status: ContractStatus, refusal?: AppError) {
  const sent: { channel: ChannelName; request: unknown }[] = [];
  const bridge: Bridge = {
    invoke: async (channel, request) => {
      sent.push({ channel, request });
      if (channel === 'session.get') {
        const user = { id: 'u-1', username: role, displayName: role, role, departmentId: null, departmentName: null };
        return { ok: true, data: { signedIn: true, serverUrl: 'http://127.0.0.1:8787', user } } as never;
      }
      if (channel === 'contract.approvalStep') return (refusal ? { ok: false, error: refusal } : { ok: true, data: { mutationId: 'm-1' } }) as never;
      return { ok: false, error: { code: 'unknown_channel', message: channel } };
    },
    on: () => () => undefined,
  };
  const store = createAppStore(bridge);
  render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <ContractApprovalActions contract={contract(status)} />
      </I18nextProvider>
    </Provider>,
  );
  return {
    steps: () => sent.filter((c) => c.channel === 'contract.approvalStep').map((c) => c.request),
    /** Whether the session (the user's role) has reached the screen. */
    sessionKnown: () => Object.values(store.getState().api.queries).some((q) => q?.endpointName === 'session' && q.status === 'fulfilled'),
  };
}

const offered = () => screen.queryAllByTestId(/^approval-(submit|approve|reject)$/).map((button) => button.dataset.testid);
const toastText = (text: string) => waitFor(() => expect(document.querySelector('.bp6-toast-container')?.textContent ?? '').toContain(text));

describe('approval actions', () => {
  it.each([
    ['staff', 1, ['approval-submit']],
    ['staff', 3, ['approval-submit']],
    ['staff', 2, []],
    ['admin', 2, ['approval-approve', 'approval-reject']],
    ['admin', 4, []],
    ['admin', 5, []],
  ] as const)('offers a %s user on status %i only %j', async (role, status, expected) => {
    const { sessionKnown } = renderActions(role, status);
    await waitFor(() => expect(sessionKnown()).toBe(true));
    await waitFor(() => expect(offered()).toEqual(expected));
  });

  it('submits after confirming, its comment optional, and says it is queued', async () => {
    const { steps } = renderActions('staff', 1);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('approval-submit'));
    expect(screen.getByTestId('approval-confirm').textContent).toContain('Submit “Steel supply” for approval?');
    // The submitter may leave a word for the approver in the trail; without one the step carries none.
    expect(screen.getByTestId('approval-comment')).toHaveProperty('value', '');
    await user.click(screen.getByTestId('approval-confirm-button'));
    await toastText('Submitted for approval on this device');
    expect(steps()).toEqual([{ id, action: 'submit' }]);
  });

  it('rejects with a trimmed comment, and keeps a comment over 2000 characters from being sent', async () => {
    const { steps } = renderActions('admin', 2);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('approval-reject'));
    const comment = screen.getByTestId('approval-comment');
    fireEvent.change(comment, { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('At most 2000 characters')).toBeTruthy();
    expect(screen.getByTestId('approval-confirm-button')).toHaveProperty('disabled', true);
    fireEvent.change(comment, { target: { value: '  The annex is missing.  ' } });
    expect(screen.getByText('21 / 2000')).toBeTruthy();
    await user.click(screen.getByTestId('approval-confirm-button'));
    await toastText('Rejected on this device');
    expect(steps()).toEqual([{ id, action: 'reject', comment: 'The annex is missing.' }]);
  });

  it('approves with a trimmed comment, as it rejects', async () => {
    const { steps } = renderActions('admin', 2);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('approval-approve'));
    fireEvent.change(screen.getByTestId('approval-comment'), { target: { value: ' Terms checked. ' } });
    await user.click(screen.getByTestId('approval-confirm-button'));
    await toastText('Approved on this device');
    expect(steps()).toEqual([{ id, action: 'approve', comment: 'Terms checked.' }]);
  });

  it('shows why the core refused a step', async () => {
    const message = 'cannot approve a contract that is approved: only a contract that is under approval can be';
    renderActions('admin', 2, { code: 'conflict', message });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('approval-approve'));
    await user.click(screen.getByTestId('approval-confirm-button'));
    await toastText(message);
  });

  it("shows why in the UI's language when the refusal carries its reason", async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      const message = 'cannot approve a contract that is approved: only a contract that is under approval can be';
      renderActions('admin', 2, { code: 'conflict', message, reason: { key: 'transitionRefused', params: { subject: 'contract', status: 4, stepDone: 'approve', allowed: [2] } } });
      const user = userEvent.setup();
      await user.click(await screen.findByTestId('approval-approve'));
      await user.click(screen.getByTestId('approval-confirm-button'));
      await toastText('审批通过的合同不能审批通过：只有审批中的合同可以。');
      const toast = [...document.querySelectorAll('.bp6-toast')].find((one) => one.textContent!.includes('审批通过的合同'));
      expect(toast!.textContent).not.toMatch(/[a-z]{4,}/);
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
