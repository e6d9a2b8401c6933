// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge, EventName, EventPayload } from '../../src-shared/ipc/channels';
import type { AppReminder } from '../../src-shared/ipc/reminders';
import { taskRoute } from '../../src-shared/rules/dashboard';
import { createAppStore } from '../../src-renderer/app/store';
import { ReminderBell } from '../../src-renderer/features/reminders/ReminderBell';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, Refusal, type Answers } from './support/fake-bridge';

// The browser edition's reminder list (issue 28 item 9): the top bar's bell counts the due
// reminders the core keeps; the list shows each with its task, contract and due date in the UI's
// language; 'open' opens the task's page, the desktop's snooze choices go to the core, and a
// reminder falling due is a browser notification once the user allowed them.

initI18n('en');
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const rent: AppReminder = {
  id: 't-1|onDue|2026-11-27', taskId: 't-1', contractId: 'c-1', contractName: 'Warehouse lease 2026', taskName: 'Collect the November rent',
  kind: 'receivableTask', heading: 'dueToday', dueDate: '2026-11-27', shownAt: '2026-11-27T09:00:00.000Z',
};
const call: AppReminder = {
  id: 't-2|overdue|2026-11-27', taskId: 't-2', contractId: null, contractName: null, taskName: 'Call the notary',
  kind: 'othersTask', heading: 'overdue', dueDate: '2026-11-20', shownAt: '2026-11-27T09:00:00.000Z',
};

/** A core that keeps a list of reminders and can push events. */
function reminderCore(list: AppReminder[], answers: Answers = {}, host: 'web' | 'electron' = 'web') {
  let reminders = list;
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const without = (id: string) => (reminders = reminders.filter((reminder) => reminder.id !== id));
  const fake = fakeBridge({
    'app.info': () => ({ version: 'test', host, systemLocale: 'en-US', organizationShare: false }),
    'reminders.list': () => reminders,
    'reminders.snooze': ({ id }) => without(id),
    'reminders.dismiss': ({ id }) => without(id),
    ...answers,
  });
  const bridge: Bridge = {
    invoke: fake.bridge.invoke,
    on: (event, listener) => {
      const set = listeners.get(event) ?? listeners.set(event, new Set()).get(event)!;
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
  return {
    bridge,
    calls: fake.calls,
    push<E extends EventName>(event: E, payload: EventPayload<E>) {
      act(() => listeners.get(event)?.forEach((listener) => listener(payload)));
    },
  };
}

function renderBell(bridge: Bridge) {
  const router = createMemoryRouter([{ path: '*', element: <ReminderBell /> }], { initialEntries: ['/'] });
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
  return router;
}

async function openList() {
  await userEvent.click(await screen.findByTestId('reminder-bell'));
  return screen.findByTestId('reminder-list');
}

/** A browser Notification stand-in that records what is shown. */
class FakeNotification {
  static permission: NotificationPermission = 'default';
  static shown: FakeNotification[] = [];
  static requestPermission = vi.fn(async () => (FakeNotification.permission = 'granted'));
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  FakeNotification.permission = 'default';
  FakeNotification.shown = [];
  vi.stubGlobal('Notification', FakeNotification);
});
afterEach(() => vi.unstubAllGlobals());

describe('the reminder bell', () => {
  it('counts the due reminders, and is not there in the desktop, which shows native notifications', async () => {
    renderBell(reminderCore([rent, call]).bridge);
    await waitFor(() => expect(screen.getByTestId('reminder-count').textContent).toBe('2'));
    expect(screen.getByTestId('reminder-bell').getAttribute('aria-label')).toBe('Reminders: 2 due');
    cleanup();
    renderBell(reminderCore([rent], {}, 'electron').bridge);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('reminder-bell')).toBeNull();
  });

  it('lists each reminder with what it says, its task, contract and due date', async () => {
    renderBell(reminderCore([rent, call]).bridge);
    const list = await openList();
    const items = within(list).getAllByTestId('reminder-item');
    expect(items.map((item) => item.getAttribute('data-reminder-id'))).toEqual([rent.id, call.id]);
    expect(items[0]!.textContent).toContain('Performance task due today');
    expect(items[0]!.textContent).toContain('Receivable task');
    expect(within(items[0]!).getByTestId('reminder-task').textContent).toBe('Collect the November rent');
    expect(within(items[0]!).getByTestId('reminder-contract').textContent).toBe('Warehouse lease 2026');
    expect(within(items[0]!).getByTestId('reminder-due').textContent).toBe('Due 27 Nov 2026');
    expect(items[1]!.textContent).toContain('Performance task overdue');
    expect(within(items[1]!).getByTestId('reminder-contract').textContent).toBe('Quick task (no contract)');
    expect(within(items[0]!).getByTestId('reminder-snooze-oneHour').textContent).toBe('Remind me in 1 hour');
    expect(within(items[0]!).getByTestId('reminder-snooze-tomorrow').textContent).toBe('Remind me tomorrow');
  });

  it('writes them in Chinese in the Chinese UI, with no English left', async () => {
    await i18n.changeLanguage('zh-CN');
    renderBell(reminderCore([rent, call]).bridge);
    const list = await openList();
    const [first] = within(list).getAllByTestId('reminder-item');
    expect(first!.textContent).toContain('履约任务今日到期');
    expect(first!.textContent).toContain('收款任务');
    expect(within(first!).getByTestId('reminder-due').textContent).toBe('到期日 2026年11月27日');
    expect(within(list).getAllByTestId('reminder-contract')[1]!.textContent).toBe('快捷任务（无合同）');
    // Only the task and contract names (data) are in Latin letters.
    const text = list.textContent!.replace(rent.taskName, '').replace(rent.contractName!, '').replace(call.taskName, '');
    expect(text).not.toMatch(/[A-Za-z]{2,}/);
  });

  it('snoozes with the desktop’s choices through the core, and shows a refusal’s reason', async () => {
    const core = reminderCore([rent, call]);
    renderBell(core.bridge);
    const list = await openList();
    await userEvent.click(within(list).getAllByTestId('reminder-snooze-tomorrow')[0]!);
    await waitFor(() => expect(within(list).getAllByTestId('reminder-item')).toHaveLength(1));
    expect(core.calls('reminders.snooze')).toEqual([{ id: rent.id, choice: 'tomorrow' }]);
    expect(screen.getByTestId('reminder-count').textContent).toBe('1');
    await waitFor(() => expect(document.querySelector('.bp6-toast-container')?.textContent).toContain('You will be reminded again tomorrow.'));
    cleanup();

    const refusing = reminderCore([rent], {
      'reminders.snooze': () => new Refusal({ code: 'not_found', message: 'reminder not in the list', reason: { key: 'reminderNotListed' } }),
    });
    renderBell(refusing.bridge);
    await userEvent.click(within(await openList()).getByTestId('reminder-snooze-oneHour'));
    await waitFor(() => expect(document.querySelector('.bp6-toast-container')?.textContent).toContain('This reminder is no longer in the list'));
  });

  it('opens the task’s contract on its performance tab in a new window and takes the reminder off the list; a quick task has no page', async () => {
    const opened = vi.fn(() => ({ opener: {} }) as unknown as Window);
    vi.stubGlobal('open', opened);
    const core = reminderCore([rent, call]);
    renderBell(core.bridge);
    const list = await openList();
    await userEvent.click(within(list).getAllByTestId('reminder-open')[0]!);
    expect(opened).toHaveBeenCalledWith(taskRoute(rent.contractId), '_blank');
    await waitFor(() => expect(core.calls('reminders.dismiss')).toEqual([{ id: rent.id }]));
    await waitFor(() => expect(screen.getByTestId('reminder-count').textContent).toBe('1'));

    await userEvent.click(within(list).getByTestId('reminder-open'));
    expect(opened).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.querySelector('.bp6-toast-container')?.textContent).toContain('This is a quick task.'));
  });

  it('takes the list the core announces, and notifies through the browser only once allowed, from the user’s click', async () => {
    const core = reminderCore([]);
    const router = renderBell(core.bridge);
    await screen.findByTestId('reminder-bell');
    await waitFor(() => expect(core.calls('reminders.list')).toHaveLength(1));
    core.push('reminders.changed', { reminders: [rent], due: [rent.id] });
    await waitFor(() => expect(screen.getByTestId('reminder-count').textContent).toBe('1'));
    // Not allowed yet: nothing shown, nothing asked without a click.
    expect(FakeNotification.shown).toEqual([]);
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();

    const list = await openList();
    await userEvent.click(within(list).getByTestId('reminder-notifications-ask'));
    await waitFor(() => expect(within(list).getByTestId('reminder-notifications').getAttribute('data-access')).toBe('granted'));
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);

    // A change that names no reminder as due (a snooze elsewhere) notifies of nothing.
    core.push('reminders.changed', { reminders: [rent, call], due: [] });
    expect(FakeNotification.shown).toEqual([]);
    core.push('reminders.changed', { reminders: [call, rent], due: [call.id] });
    expect(FakeNotification.shown).toHaveLength(1);
    const [shown] = FakeNotification.shown;
    expect(shown!.title).toBe('Performance task overdue');
    expect(shown!.options).toMatchObject({ tag: call.id, body: 'Other task: Call the notary, due 20 Nov 2026\nQuick task (no contract)' });

    // Its click brings the app forward and opens the task's page here.
    core.push('reminders.changed', { reminders: [rent, call], due: [rent.id] });
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    act(() => FakeNotification.shown[1]!.onclick!());
    expect(focus).toHaveBeenCalled();
    expect(FakeNotification.shown[1]!.closed).toBe(true);
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(taskRoute(rent.contractId)));
    await waitFor(() => expect(core.calls('reminders.dismiss')).toEqual([{ id: rent.id }]));
  });

  it('says so where the browser blocks or lacks notifications', async () => {
    FakeNotification.permission = 'denied';
    renderBell(reminderCore([]).bridge);
    expect(within(await openList()).getByTestId('reminder-notifications').textContent).toBe('Browser notifications are blocked for this site: reminders show here only.');
    cleanup();
    vi.stubGlobal('Notification', undefined);
    renderBell(reminderCore([]).bridge);
    const list = await openList();
    expect(within(list).getByTestId('reminder-notifications').textContent).toBe('This browser cannot show notifications: reminders show here only.');
    expect(list.textContent).toContain('No reminders are due.');
  });
});
