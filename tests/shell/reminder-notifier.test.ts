import { describe, expect, it, vi } from 'vitest';
import type { DueReminder } from '../../src-main/core/performance/reminders/rules';
import { reminderNotification } from '../../src-main/core/performance/reminders/scheduler';
import { createReminderNotifier, type NativeNotification, type NativeNotificationOptions } from '../../src-main/shell/reminder-notifier';

/** A stand-in for Electron's Notification: records its options and lets the test fire its events. */
class FakeNotification implements NativeNotification {
  readonly listeners = new Map<string, (...args: unknown[]) => void>();
  shownTimes = 0;
  constructor(readonly options: NativeNotificationOptions) {}
  on(event: string, listener: (...args: never[]) => void) {
    this.listeners.set(event, listener as (...args: unknown[]) => void);
    return this;
  }
  show() {
    this.shownTimes++;
  }
  fire(event: string, ...args: unknown[]) {
    this.listeners.get(event)!(...args);
  }
}

function reminder(overrides: Partial<DueReminder> = {}): DueReminder {
  return {
    id: 'task-1|onDue|2026-11-21',
    taskId: 'task-1',
    contractId: 'contract-1',
    taskName: 'Second instalment',
    kind: 'paymentTask',
    rule: 'onDue',
    occurrence: '2026-11-21',
    dueDate: '2026-11-21',
    at: new Date('2026-11-21T08:00:00Z'),
    ...overrides,
  };
}

function setup(taskIsOpen = true) {
  const created: FakeNotification[] = [];
  const deps = {
    createNotification: (options: NativeNotificationOptions) => {
      const notification = new FakeNotification(options);
      created.push(notification);
      return notification;
    },
    openRoute: vi.fn(),
    focusApp: vi.fn(),
    taskIsOpen: vi.fn(() => taskIsOpen),
    snooze: vi.fn(),
    logger: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
  };
  return { notifier: createReminderNotifier(deps), created, deps };
}

describe('reminder notifier', () => {
  it('shows the reminder with its snooze actions and keeps a reference until it is clicked', () => {
    const { notifier, created, deps } = setup();
    notifier.show(reminderNotification(reminder(), 'en'));
    const [native] = created;
    expect(native!.shownTimes).toBe(1);
    expect(native!.options.title).not.toBe('');
    expect(native!.options.body).toContain('Second instalment');
    expect(native!.options.actions).toHaveLength(2);
    expect(notifier.pending).toBe(1);

    native!.fire('click');
    expect(deps.openRoute).toHaveBeenCalledWith('/contractApproval/detail?id=contract-1&flowId=0&tab=PERFORMANCE_TAB&active=0');
    expect(notifier.pending).toBe(0);
  });

  it('releases the reference when the notification is closed or fails, opening nothing', () => {
    const { notifier, created, deps } = setup();
    notifier.show(reminderNotification(reminder({ id: 'a' }), 'en'));
    notifier.show(reminderNotification(reminder({ id: 'b' }), 'zh-CN'));
    expect(notifier.pending).toBe(2);
    created[0]!.fire('close');
    created[1]!.fire('failed', {}, 'no notification daemon');
    expect(notifier.pending).toBe(0);
    expect(deps.openRoute).not.toHaveBeenCalled();
    expect(deps.logger.warn).toHaveBeenCalledWith(expect.stringContaining('no notification daemon'));
  });

  it('snoozes with the chosen action', () => {
    const { notifier, created, deps } = setup();
    const due = reminder();
    notifier.show(reminderNotification(due, 'en'));
    created[0]!.fire('action', {}, 1);
    expect(deps.snooze).toHaveBeenCalledWith(due, 'tomorrow');
    expect(notifier.pending).toBe(0);
    notifier.show(reminderNotification(due, 'en'));
    created[1]!.fire('action', {}, 7);
    expect(deps.snooze).toHaveBeenCalledTimes(1);
  });

  it('brings the app forward for a quick task, which has no page', () => {
    const { notifier, created, deps } = setup();
    notifier.show(reminderNotification(reminder({ contractId: null }), 'en'));
    created[0]!.fire('click');
    expect(deps.openRoute).not.toHaveBeenCalled();
    expect(deps.focusApp).toHaveBeenCalledOnce();
  });

  it('opens nothing for a task deleted or finished after the reminder was shown', () => {
    const { notifier, created, deps } = setup(false);
    notifier.show(reminderNotification(reminder(), 'en'));
    created[0]!.fire('click');
    expect(deps.taskIsOpen).toHaveBeenCalledWith('task-1');
    expect(deps.openRoute).not.toHaveBeenCalled();
    expect(deps.logger.info).toHaveBeenCalledWith(expect.stringContaining('deleted or finished'));
  });
});
