import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reminderLog } from '../../src-main/core/performance/reminder-log';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import type { Logger } from '../../src-main/core/ports';
import { remindersDue } from '../../src-main/core/performance/reminders/rules';
import { createReminderScheduler, type ReminderNotification, type Timers } from '../../src-main/core/performance/reminders/scheduler';
import { clientMigrationsDir } from '../../src-main/paths';
import { TaskState } from '../../src-shared/domain/enums';
import type { ReminderSettings, ReminderTask } from '../../src-shared/domain/reminders';
import type { Language } from '../../src-shared/i18n/languages';
import { tempDir } from '../support/temp';
import { at, kindSettings, localOf, settingsForAll, task } from './reminders-fixtures';

/** A clock and timers the test drives: `runUntil` fires each due timer with the clock at its time. */
function fakeTime(start: Date) {
  let now = start.getTime();
  const pending = new Set<{ at: number; callback: () => void }>();
  const timers: Timers = {
    set(callback, delayMs) {
      const handle = { at: now + delayMs, callback };
      pending.add(handle);
      return handle;
    },
    clear(handle) {
      pending.delete(handle as { at: number; callback: () => void });
    },
  };
  return {
    clock: { now: () => new Date(now) },
    timers,
    pendingCount: () => pending.size,
    runUntil(end: Date) {
      for (;;) {
        const next = [...pending].filter((p) => p.at <= end.getTime()).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        pending.delete(next);
        now = next.at;
        next.callback();
      }
      now = end.getTime();
    },
    /** The machine was off: time passes and no timer runs. */
    jumpTo(instant: Date) {
      pending.clear();
      now = instant.getTime();
    },
  };
}

const quietLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

interface Shown {
  id: string;
  shownAt: Date;
  notification: ReminderNotification;
}

describe('reminder scheduler', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'replica.sqlite'), clientMigrationsDir);
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  function setup(options: {
    start: Date;
    zone: string;
    tasks: ReminderTask[];
    settings: ReminderSettings;
    language?: Language;
    maxSleepMs?: number;
  }) {
    const time = fakeTime(options.start);
    const state = { zone: options.zone, tasks: options.tasks, settings: options.settings as ReminderSettings | null };
    const shown: Shown[] = [];
    const make = () =>
      createReminderScheduler({
        clock: time.clock,
        timers: time.timers,
        tasks: { tasks: () => state.tasks },
        settings: { settings: () => state.settings },
        log: reminderLog(replica),
        notifier: { show: (notification) => shown.push({ id: notification.id, shownAt: time.clock.now(), notification }) },
        logger: quietLogger,
        language: () => options.language ?? 'en',
        zone: () => state.zone,
        maxSleepMs: options.maxSleepMs,
      });
    return { time, state, shown, make };
  }

  /** A mix of kinds, states and a quick task; the finished one must never show. */
  const mixedTasks = [
    task({ id: 'receivable', dueDate: '2026-03-30' }),
    task({ id: 'payment', type: 'payment', dueDate: '2026-11-02', state: TaskState.NotStarted }),
    task({ id: 'quick', contractId: null, type: 'recall', dueDate: '2026-07-01' }),
    task({ id: 'overdue', type: 'invoicing', dueDate: '2025-12-20', state: TaskState.Overdue }),
    task({ id: 'finished', type: 'expiration', dueDate: '2026-05-05', state: TaskState.Success }),
  ];
  const mixedSettings = settingsForAll(
    kindSettings({
      timeNode: { reminderTypes: ['threeDaysBefore', 'oneWeekBefore', 'onDue', 'other'], otherTimes: ['oneMonth'] },
      condition: { reminderType: 'daily' },
      overTime: { reminderType: 'weekly' },
      reminderTime: '09:00',
    }),
  );

  // Year-long runs wake every 12 hours when idle (not hourly) to stay quick; wakes at reminder
  // instants are exact whatever the idle sleep.
  const yearRunSleepMs = 12 * 3_600_000;

  it.each(['Europe/Berlin', 'America/New_York', 'Asia/Shanghai'])(
    'over a year of days in %s, shows each reminder once, exactly at its local time',
    (zone) => {
      const start = at('2026-01-01T00:00', zone);
      const end = at('2027-01-01T00:00', zone);
      const { time, shown, make } = setup({ start, zone, tasks: mixedTasks, settings: mixedSettings, maxSleepMs: yearRunSleepMs });
      make().start();
      time.runUntil(end);
      const expected = remindersDue({ tasks: mixedTasks, settings: mixedSettings, zone, from: start, to: end });
      expect(shown.map((s) => [s.id, s.shownAt.toISOString()])).toEqual(expected.map((r) => [r.id, r.at.toISOString()]));
      expect(new Set(shown.map((s) => s.id)).size).toBe(shown.length);
      expect(shown.every((s) => localOf(s.shownAt, zone).endsWith('T09:00'))).toBe(true);
      expect(shown.some((s) => s.notification.reminder.taskId === 'finished')).toBe(false);
      // Spot checks independent of the engine: the receivable task, due the day after Berlin's
      // and two weeks after New York's spring-forward, is reminded a month, a week and 3 days
      // before, daily in between, and on the day.
      const receivable = shown.filter((s) => s.notification.reminder.taskId === 'receivable').map((s) => localOf(s.shownAt, zone));
      expect(receivable).toEqual([
        '2026-02-28T09:00', '2026-03-01T09:00', '2026-03-02T09:00', '2026-03-03T09:00', '2026-03-04T09:00', '2026-03-05T09:00',
        '2026-03-06T09:00', '2026-03-07T09:00', '2026-03-08T09:00', '2026-03-09T09:00', '2026-03-10T09:00', '2026-03-11T09:00',
        '2026-03-12T09:00', '2026-03-13T09:00', '2026-03-14T09:00', '2026-03-15T09:00', '2026-03-16T09:00', '2026-03-17T09:00',
        '2026-03-18T09:00', '2026-03-19T09:00', '2026-03-20T09:00', '2026-03-21T09:00', '2026-03-22T09:00', '2026-03-23T09:00',
        '2026-03-24T09:00', '2026-03-25T09:00', '2026-03-26T09:00', '2026-03-27T09:00', '2026-03-28T09:00', '2026-03-29T09:00',
        '2026-03-30T09:00', '2026-04-06T09:00', '2026-04-13T09:00', '2026-04-20T09:00', '2026-04-27T09:00',
        ...['05-04', '05-11', '05-18', '05-25', '06-01', '06-08', '06-15', '06-22', '06-29', '07-06', '07-13', '07-20', '07-27',
          '08-03', '08-10', '08-17', '08-24', '08-31', '09-07', '09-14', '09-21', '09-28', '10-05', '10-12', '10-19', '10-26',
          '11-02', '11-09', '11-16', '11-23', '11-30', '12-07', '12-14', '12-21', '12-28'].map((d) => `2026-${d}T09:00`),
      ]);
    },
  );

  it('fires nothing twice across restarts, and misses nothing while it runs', () => {
    const zone = 'Europe/Berlin';
    const start = at('2026-01-01T00:00', zone);
    const end = at('2027-01-01T00:00', zone);
    const { time, shown, make } = setup({ start, zone, tasks: mixedTasks, settings: mixedSettings, maxSleepMs: yearRunSleepMs });
    // Restart every 40 days at a random-ish moment, each time with a fresh scheduler over the
    // same replica file (reopened, as after an app restart).
    let scheduler = make();
    scheduler.start();
    for (let cut = 1; cut <= 9; cut += 1) {
      time.runUntil(new Date(start.getTime() + cut * 40 * 86_400_000 + cut * 3_600_000 + 9 * 3_600_000));
      scheduler.stop();
      expect(time.pendingCount()).toBe(0);
      replica.close();
      replica = openReplica(join(dir.path, 'replica.sqlite'), clientMigrationsDir);
      scheduler = make();
      scheduler.start();
    }
    time.runUntil(end);
    const expected = remindersDue({ tasks: mixedTasks, settings: mixedSettings, zone, from: start, to: end });
    expect(shown.map((s) => s.id)).toEqual(expected.map((r) => r.id));
  });

  it('after a month closed, catches up only the last 24 hours', () => {
    const zone = 'Asia/Shanghai';
    const tasks = [task({ id: 'daily', dueDate: '2026-01-01', state: TaskState.Overdue })];
    const settings = settingsForAll(kindSettings({ overTime: { reminderType: 'daily' } }));
    const { time, shown, make } = setup({ start: at('2026-02-01T12:00', zone), zone, tasks, settings });
    make().start();
    expect(shown.map((s) => s.id)).toEqual(['daily|overdue|2026-02-01']);
    time.jumpTo(at('2026-03-03T10:00', zone));
    make().start();
    // Only 2026-03-03 09:00 lies within the last 24 hours; the month before is not replayed.
    expect(shown.map((s) => [s.id, localOf(s.shownAt, zone)])).toEqual([
      ['daily|overdue|2026-02-01', '2026-02-01T12:00'],
      ['daily|overdue|2026-03-03', '2026-03-03T10:00'],
    ]);
  });

  it('forgets fired reminders after 30 days on start, but keeps pending snoozes', () => {
    const zone = 'Asia/Shanghai';
    const log = reminderLog(replica);
    const row = (id: string) => ({ id, taskId: 'gone', rule: 'onDue', occurrence: '2026-01-01' });
    log.markFired(row('old'), '2026-01-01T01:00:00.000Z');
    log.markFired(row('old-snoozed'), '2026-01-01T01:00:00.000Z');
    log.snooze('old-snoozed', '2026-03-01T00:00:00.000Z');
    log.markFired(row('recent'), '2026-01-20T01:00:00.000Z');
    const { make } = setup({ start: new Date('2026-02-05T00:00:00.000Z'), zone, tasks: [], settings: mixedSettings });
    make().start();
    expect([...log.firedAmong(['old', 'old-snoozed', 'recent'])].sort()).toEqual(['old-snoozed', 'recent']);
  });

  it('follows a time-zone change at once without repeating the day', () => {
    const tasks = [task({ id: 'daily', dueDate: '2026-01-01', state: TaskState.Overdue })];
    const settings = settingsForAll(kindSettings({ overTime: { reminderType: 'daily' } }));
    const { time, state, shown, make } = setup({ start: at('2026-06-10T00:00', 'Asia/Shanghai'), zone: 'Asia/Shanghai', tasks, settings });
    const scheduler = make();
    scheduler.start();
    // 10 June 09:00 fires in Shanghai (01:00Z); then the user flies to New York, where 10 June
    // 09:00 is still ahead: it must not fire again, and 11 June fires at 09:00 New York time.
    time.runUntil(at('2026-06-10T12:00', 'Asia/Shanghai'));
    state.zone = 'America/New_York';
    scheduler.refresh();
        // And back east at 22:00 New York time, when 13 June 09:00 Shanghai is already an hour past:
    // the 24-hour look-back shows it at once rather than losing it.
    time.runUntil(at('2026-06-12T22:00', 'America/New_York'));
    state.zone = 'Asia/Shanghai';
    scheduler.refresh();
    expect(shown.map((s) => [s.id, s.shownAt.toISOString()])).toEqual([
      ['daily|overdue|2026-06-09', '2026-06-09T16:00:00.000Z'], // caught up at start
      ['daily|overdue|2026-06-10', '2026-06-10T01:00:00.000Z'],
      ['daily|overdue|2026-06-11', '2026-06-11T13:00:00.000Z'],
      ['daily|overdue|2026-06-12', '2026-06-12T13:00:00.000Z'],
      ['daily|overdue|2026-06-13', '2026-06-13T02:00:00.000Z'],
    ]);
  });

  it('does not remind of a task deleted or finished meanwhile', () => {
    const zone = 'Asia/Shanghai';
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] } }));
    const tasks = [task({ id: 'deleted', dueDate: '2026-06-15' }), task({ id: 'finished', dueDate: '2026-06-15' })];
    const { time, state, shown, make } = setup({ start: at('2026-06-14T00:00', zone), zone, tasks, settings });
    make().start();
    time.runUntil(at('2026-06-15T08:00', zone));
    state.tasks = [task({ id: 'finished', dueDate: '2026-06-15', state: TaskState.Success })];
    time.runUntil(at('2026-06-20T00:00', zone));
    expect(shown).toEqual([]);
  });

  it('waits without settings and starts reminding once they arrive', () => {
    const zone = 'Asia/Shanghai';
    const onDue = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] } }));
    const { time, state, shown, make } = setup({ start: at('2026-06-15T08:00', zone), zone, tasks: [task()], settings: onDue });
    state.settings = null;
    const scheduler = make();
    scheduler.start();
    time.runUntil(at('2026-06-15T08:30', zone));
    state.settings = onDue;
    scheduler.refresh();
    time.runUntil(at('2026-06-15T10:00', zone));
    expect(shown.map((s) => [s.id, localOf(s.shownAt, zone)])).toEqual([['t1|onDue|2026-06-15', '2026-06-15T09:00']]);
  });

  it('snoozes for an hour or until tomorrow at the reminder time, across a restart, and forgets a deleted task', () => {
    const zone = 'Europe/Berlin';
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] }, reminderTime: '08:15' }));
    const tasks = [task({ id: 'a', dueDate: '2026-03-28' }), task({ id: 'b', dueDate: '2026-03-28' }), task({ id: 'c', dueDate: '2026-03-28' })];
    const { time, state, shown, make } = setup({ start: at('2026-03-28T00:00', zone), zone, tasks, settings });
    const scheduler = make();
    scheduler.start();
    time.runUntil(at('2026-03-28T08:20', zone));
    const first = Object.fromEntries(shown.map((s) => [s.notification.reminder.taskId, s.notification.reminder]));
    expect(scheduler.snooze(first.a!, 'oneHour')).toBe(true);
    expect(scheduler.snooze(first.b!, 'tomorrow')).toBe(true);
    expect(scheduler.snooze(first.c!, 'tomorrow')).toBe(true);
    expect(scheduler.snooze({ ...first.a!, id: 'never-shown' }, 'oneHour')).toBe(false);
    time.runUntil(at('2026-03-28T12:00', zone));
    scheduler.stop();
    // Restart before tomorrow; task c is deleted meanwhile. Tomorrow is the spring-forward day:
    // 08:15 local is 06:15Z there (it was 07:15Z today).
    state.tasks = tasks.filter((t) => t.id !== 'c');
    make().start();
    time.runUntil(at('2026-03-30T00:00', zone));
    expect(shown.map((s) => [s.id, s.shownAt.toISOString()])).toEqual([
      ['a|onDue|2026-03-28', '2026-03-28T07:15:00.000Z'],
      ['b|onDue|2026-03-28', '2026-03-28T07:15:00.000Z'],
      ['c|onDue|2026-03-28', '2026-03-28T07:15:00.000Z'],
      ['a|onDue|2026-03-28', '2026-03-28T08:20:00.000Z'],
      ['b|onDue|2026-03-28', '2026-03-29T06:15:00.000Z'],
    ]);
  });

  it('words the notification in the user language and opens the task route; quick tasks have none', () => {
    const zone = 'Asia/Shanghai';
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] } }));
    const tasks = [task({ id: 't1', contractId: 'c 1&x', name: '收取定金' }), task({ id: 'q', contractId: null, name: 'call back', type: 'recall' })];
    const { time, shown, make } = setup({ start: at('2026-06-15T08:00', zone), zone, tasks, settings, language: 'zh-CN' });
    make().start();
    time.runUntil(at('2026-06-15T10:00', zone));
    expect(shown.map(({ notification: { title, body, route, snoozeLabels } }) => ({ title, body, route, snoozeLabels }))).toEqual([
      {
        title: '履约任务今日到期',
        body: '其他任务：call back，到期日 2026年06月15日',
        route: null,
        snoozeLabels: { oneHour: '1 小时后提醒', tomorrow: '明天提醒' },
      },
      {
        title: '履约任务今日到期',
        body: '收款任务：收取定金，到期日 2026年06月15日',
        route: '/contractApproval/detail?id=c%201%26x&flowId=0&tab=PERFORMANCE_TAB&active=0',
        snoozeLabels: { oneHour: '1 小时后提醒', tomorrow: '明天提醒' },
      },
    ]);
  });

  it('writes the due date as the user language writes a day (issue 28: not ISO)', () => {
    const zone = 'Asia/Shanghai';
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] } }));
    const tasks = [task({ id: 't1', contractId: 'c1', name: 'Collect the deposit' })];
    const { time, shown, make } = setup({ start: at('2026-06-15T08:00', zone), zone, tasks, settings, language: 'en' });
    make().start();
    time.runUntil(at('2026-06-15T10:00', zone));
    expect(shown.map(({ notification }) => notification.body)).toEqual(['Receivable task: Collect the deposit, due 15 Jun 2026']);
  });

  it('keeps reminding after a notifier failure, without showing the failed one again', () => {
    const zone = 'Asia/Shanghai';
    const tasks = [task({ id: 'daily', dueDate: '2026-01-01', state: TaskState.Overdue })];
    const settings = settingsForAll(kindSettings({ overTime: { reminderType: 'daily' } }));
    const time = fakeTime(at('2026-06-10T00:00', zone));
    const tries: string[] = [];
    createReminderScheduler({
      clock: time.clock,
      timers: time.timers,
      tasks: { tasks: () => tasks },
      settings: { settings: () => settings },
      log: reminderLog(replica),
      notifier: {
        show: (n) => {
          tries.push(n.id);
          if (tries.length === 1) throw new Error('notification service down');
        },
      },
      logger: quietLogger,
      language: () => 'en',
      zone: () => zone,
    }).start();
    time.runUntil(at('2026-06-12T00:00', zone));
    // The start catches up 9 June (within the last 24 hours); its failure is logged, not retried.
    expect(tries).toEqual(['daily|overdue|2026-06-09', 'daily|overdue|2026-06-10', 'daily|overdue|2026-06-11']);
  });
});
