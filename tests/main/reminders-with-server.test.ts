import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import type { Notifier, ReminderNotification, Timers } from '../../src-main/core/performance/reminders/scheduler';
import type { RunningServer } from '../../src-server';
import { call, settledSync, testCore } from '../support/core';
import { tempDir } from '../support/temp';
import { serverRemindingAlice } from './reminders-server';

// Desktop reminders end to end: tasks and settings reach the replica through sync, and the
// core's scheduler shows a reminder once through the notifier, with a fake clock and timers. Its
// words follow the language the page says it shows, not the host's locale (issue 31).

const serverDir = tempDir('contract-desk-reminders-server-');
const desktop = tempDir('contract-desk-reminders-core-');
let server: RunningServer;
let core: Core | undefined;

const dueDate = '2030-03-12';
let now = new Date(`${dueDate}T08:00:00Z`);
const clock = { now: () => now };
/** Timers that never fire: the test wakes the scheduler itself through `refresh`. */
const timers: Timers = { set: () => 0, clear: () => undefined };
const shown: ReminderNotification[] = [];
const notifier: Notifier = { show: (notification) => shown.push(notification) };
const ids = { due: '', finished: '' };

const startCore = (systemLocale = 'en-US') => testCore(desktop.path, { clock, timers, notifier, timeZone: () => 'UTC', pullPageSize: 200, systemLocale });
const shownFor = (taskId: string) => shown.filter((n) => n.reminder.taskId === taskId);

beforeAll(async () => {
  const seeded = await serverRemindingAlice(serverDir.path);
  ({ server } = seeded);
  const { client, token, user } = seeded;
  const quickTask = (name: string) =>
    client.call('performanceQuickTask', {
      token,
      body: { name, type: 'custom', leaderUserID: user.id, fieldList: [{ id: 'date', name: 'Date', type: 'date', required: true, value: dueDate }] },
    });
  ids.due = (await quickTask('Call the supplier')).id;
  ids.finished = (await quickTask('Send the invoice')).id;
});

afterAll(async () => {
  await core?.close();
  await server?.close().catch(() => undefined);
  desktop.cleanup();
  serverDir.cleanup();
});

describe('reminders of the signed-in user, through sync', () => {
  it('a task due today raises exactly one notification at the reminder time; a task finished meanwhile none', async () => {
    core = startCore();
    await call(core, 'session.signIn', { serverUrl: server.url, username: 'alice', password: 'alice123' });
    await settledSync(core);
    core.reminders.refresh();
    expect(shownFor(ids.due)).toEqual([]);

    const client = createContractServerClient(server.url);
    const { token } = await client.call('login', { body: { username: 'alice', password: 'alice123' } });
    // (The client has no path parameters: it only calls the sync and session endpoints.)
    const finished = await fetch(`${server.url}/api/v1/performances/task/${ids.finished}/finish`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(finished.status).toBe(200);
    await call(core, 'sync.now', {});
    expect(core.reminders.taskIsOpen(ids.finished)).toBe(false);
    expect(core.reminders.taskIsOpen(ids.due)).toBe(true);

    // An English host, a Chinese page (the web edition's page follows the browser): the page's words.
    await call(core, 'app.pageLanguage', { language: 'zh-CN' });
    now = new Date(`${dueDate}T09:01:00Z`);
    core.reminders.refresh();
    core.reminders.refresh();
    expect(shownFor(ids.due)).toHaveLength(1);
    expect(shownFor(ids.due)[0]).toMatchObject({ route: null, reminder: { rule: 'onDue', dueDate } });
    expect(shownFor(ids.due)[0]).toMatchObject({ title: '履约任务今日到期', body: '其他任务：Call the supplier，到期日 2030年03月12日' });
    expect(shownFor(ids.finished)).toEqual([]);
  });

  it('shows it no more after a restart', async () => {
    core!.reminders.snooze(shownFor(ids.due)[0]!.reminder, 'oneHour');
    await core!.close();
    now = new Date(`${dueDate}T10:00:00Z`);
    core = startCore('zh-CN');
    await settledSync(core);
    core.reminders.refresh();
    expect(shownFor(ids.due)).toHaveLength(1);
    expect(shownFor(ids.finished)).toEqual([]);
  });

  it('words a reminder in the language the page shows, not the host\'s: English on a Chinese host', async () => {
    await call(core!, 'app.pageLanguage', { language: 'en' });
    // The reminder snoozed before the restart is due again an hour after it was shown.
    now = new Date(`${dueDate}T10:02:00Z`);
    core!.reminders.refresh();
    expect(shownFor(ids.due)).toHaveLength(2);
    expect(shownFor(ids.due)[1]).toMatchObject({ title: 'Performance task due today', body: 'Other task: Call the supplier, due 12 Mar 2030', snoozeLabels: { oneHour: 'Remind me in 1 hour' } });
  });

  it('stops on sign-out', async () => {
    await call(core!, 'session.signOut', {});
    expect(core!.reminders.taskIsOpen(ids.due)).toBe(false);
  });
});
