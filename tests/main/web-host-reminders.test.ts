import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Core } from '../../src-main/core/core';
import type { Timers } from '../../src-main/core/performance/reminders/scheduler';
import { startWebHost, type WebHost } from '../../src-main/web-host/web-host';
import type { EventPayload } from '../../src-shared/ipc/channels';
import { hostFrameSchema, webHostKeyName, type HostFrame } from '../../src-shared/ipc/wire';
import type { RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { serverRemindingAlice } from './reminders-server';

// Reminders in the browser edition (issue 28 item 9): the web host's core keeps each due reminder
// in the in-app list and announces it over every connected page's socket; a page's snooze goes
// through the channel to the scheduler, which reminds again when the snooze ends. Bad input is
// refused with a clear reason and changes nothing. Fake clock and timers: the test wakes the scheduler.

const serverDir = tempDir('contract-desk-webhost-reminders-server-');
const desktop = tempDir('contract-desk-webhost-reminders-core-');
const rendererDir = join(desktop.path, 'renderer');
let server: RunningServer;
let core: Core;
let host: WebHost;

const dueDate = '2030-03-12';
let now = new Date(`${dueDate}T08:00:00Z`);
const timers: Timers = { set: () => 0, clear: () => undefined };
const task = { id: '', name: 'Collect the March rent', contractName: '' };
/** A quick task of no contract, due the same day. */
const other = { id: '', name: 'Call the notary' };

type Changed = EventPayload<'reminders.changed'>;

/** A page's socket: the frames it gets, and calls through it. */
async function openPage() {
  const html = await (await fetch(`${host.url}/`)).text();
  const key = new RegExp(`<meta name="${webHostKeyName}" content="([^"]+)"`).exec(html)![1]!;
  const socket = new WebSocket(`${host.url.replace('http', 'ws')}/ipc?${webHostKeyName}=${encodeURIComponent(key)}`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const frames: HostFrame[] = [];
  socket.on('message', (data) => frames.push(hostFrameSchema.parse(JSON.parse(data.toString()))));
  let nextId = 1;
  return {
    socket,
    changes: () => frames.flatMap((frame) => (frame.type === 'event' && frame.event === 'reminders.changed' ? [frame.payload as Changed] : [])),
    async invoke(channel: string, request: unknown) {
      const id = nextId++;
      socket.send(JSON.stringify({ type: 'invoke', id, channel, request }));
      const frame = await waitFor(() => frames.find((f) => f.type === 'result' && f.id === id));
      return (frame as Extract<HostFrame, { type: 'result' }>).result;
    },
  };
}

beforeAll(async () => {
  const seeded = await serverRemindingAlice(serverDir.path);
  ({ server } = seeded);
  const { user } = seeded;

  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>app shell</title>');
  // No notifier: the web host's core, as its command line starts it.
  core = testCore(join(desktop.path, 'data'), { clock: { now: () => now }, timers, timeZone: () => 'UTC', syncSoonMs: 10 });
  host = await startWebHost({ core, rendererDir, port: 0 });
  await call(core, 'session.signIn', { serverUrl: server.url, username: 'alice', password: 'alice123' });
  await settledSync(core);
  // A quick task of one of her contracts, due that day, which she leads.
  const contract = (await call(core, 'ledger.contractPage', { pageSize: 10 })).list[0]!;
  task.contractName = contract.name;
  const fieldList = [{ id: 'date', name: 'Date', type: 'date', required: true, value: dueDate }];
  ({ id: task.id } = await call(core, 'performance.quickTask', { payload: { name: task.name, type: 'custom', relatedID: contract.id, leaderUserID: user.id, fieldList } }));
  ({ id: other.id } = await call(core, 'performance.quickTask', { payload: { name: other.name, type: 'custom', leaderUserID: user.id, fieldList } }));
  await waitFor(async () => {
    await call(core, 'sync.now', {});
    return (core.reminders.taskIsOpen(task.id) && core.reminders.taskIsOpen(other.id)) || undefined;
  });
});

afterAll(async () => {
  await host?.close();
  await core?.close();
  await server?.close().catch(() => undefined);
  desktop.cleanup();
  serverDir.cleanup();
});

describe('reminders in the browser edition', () => {
  let first: Awaited<ReturnType<typeof openPage>>;
  let second: Awaited<ReturnType<typeof openPage>>;
  let reminderId = '';
  let otherId = '';

  it('a due reminder reaches every connected page, with its task, contract and due date, and stays in the list', async () => {
    first = await openPage();
    second = await openPage();
    // (Other tasks of hers may be due or overdue already: only this one is looked at.)
    const ofTask = <R extends { taskId: string }>(reminders: R[]) => reminders.filter((reminder) => reminder.taskId === task.id);
    core.reminders.refresh();
    expect(ofTask(await call(core, 'reminders.list', {}))).toEqual([]);

    now = new Date(`${dueDate}T09:01:00Z`);
    core.reminders.refresh();
    for (const page of [first, second]) {
      const change = await waitFor(() => page.changes().find((c) => ofTask(c.reminders).length > 0));
      const [mine] = ofTask(change.reminders);
      expect(mine).toMatchObject({ taskName: task.name, contractName: task.contractName, dueDate, heading: 'dueToday', kind: 'othersTask', shownAt: now.toISOString() });
      expect(change.due).toEqual([mine!.id]);
      reminderId = mine!.id;
    }
    const quick = (await call(core, 'reminders.list', {})).find((reminder) => reminder.taskId === other.id);
    expect(quick).toMatchObject({ taskName: other.name, contractId: null, contractName: null, heading: 'dueToday' });
    otherId = quick!.id;
    // A page opened later reads the list.
    const later = await openPage();
    expect(await later.invoke('reminders.list', {})).toMatchObject({ ok: true, data: expect.arrayContaining([expect.objectContaining({ id: reminderId })]) });
    later.socket.close();
  });

  it('refuses a bad snooze with a clear reason and changes nothing', async () => {
    expect(await first.invoke('reminders.snooze', { id: reminderId, choice: 'nextWeek' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', issues: [{ path: 'choice', message: 'Invalid option: expected one of "oneHour"|"tomorrow"' }] },
    });
    expect(await first.invoke('reminders.snooze', { id: '', choice: 'oneHour' })).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'id', message: 'which reminder?' }] } });
    expect(await first.invoke('reminders.snooze', { id: 'no-such|onDue|2030-03-12', choice: 'oneHour' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', reason: { key: 'reminderNotListed' } },
    });
    expect(await first.invoke('reminders.list', {})).toMatchObject({ ok: true, data: expect.arrayContaining([expect.objectContaining({ id: reminderId })]) });
  });

  it('a snooze from a page reaches the scheduler: off every list now, due again an hour later', async () => {
    const before = second.changes().length;
    const answer = await first.invoke('reminders.snooze', { id: reminderId, choice: 'oneHour' });
    expect(answer).toMatchObject({ ok: true });
    expect((answer as { data: { id: string }[] }).data.map((r) => r.id)).not.toContain(reminderId);
    // The other page hears of it too.
    await waitFor(() => (second.changes().length > before ? true : undefined));
    expect(second.changes().at(-1)!.reminders.map((r) => r.id)).not.toContain(reminderId);
    // Snoozed once: a second snooze of it is refused.
    expect(await first.invoke('reminders.snooze', { id: reminderId, choice: 'tomorrow' })).toMatchObject({ ok: false, error: { code: 'not_found' } });

    now = new Date(`${dueDate}T09:30:00Z`);
    core.reminders.refresh();
    expect((await call(core, 'reminders.list', {})).map((r) => r.id)).not.toContain(reminderId);
    now = new Date(`${dueDate}T10:02:00Z`);
    core.reminders.refresh();
    const again = await waitFor(() => second.changes().find((change) => change.due.includes(reminderId)));
    expect(again.reminders.map((r) => r.id)).toContain(reminderId);
  });

  it('the list survives a restart of the web host: kept in the replica, not in memory', async () => {
    const before = (await call(core, 'reminders.list', {})).filter((reminder) => reminder.id === reminderId || reminder.id === otherId);
    expect(before.map((reminder) => reminder.id).sort()).toEqual([reminderId, otherId].sort());
    first.socket.close();
    second.socket.close();
    await host.close();
    await core.close();
    core = testCore(join(desktop.path, 'data'), { clock: { now: () => now }, timers, timeZone: () => 'UTC', syncSoonMs: 10 });
    host = await startWebHost({ core, rendererDir, port: 0 });
    first = await openPage();
    second = await openPage();
    const after = await first.invoke('reminders.list', {});
    expect(after).toMatchObject({ ok: true });
    expect((after as { data: { id: string }[] }).data.filter((reminder) => reminder.id === reminderId || reminder.id === otherId)).toEqual(before);
    // Shown once: the restarted scheduler does not announce them again.
    core.reminders.refresh();
    expect(first.changes().flatMap((change) => change.due)).not.toContain(reminderId);
  });

  it('dismissing takes it off the list, once', async () => {
    const answer = await first.invoke('reminders.dismiss', { id: otherId });
    expect(answer).toMatchObject({ ok: true });
    const left = (answer as { data: { id: string }[] }).data.map((r) => r.id);
    expect(left).not.toContain(otherId);
    expect(left).toContain(reminderId);
    expect(await first.invoke('reminders.dismiss', { id: otherId })).toMatchObject({ ok: false, error: { code: 'not_found', reason: { key: 'reminderNotListed' } } });
  });

  it('a task finished meanwhile takes its reminder off every page', async () => {
    const before = second.changes().length;
    await call(core, 'fulfilment.finish', { id: task.id });
    const change = await waitFor(() => second.changes().slice(before).find((c) => !c.reminders.some((r) => r.id === reminderId)));
    expect(change.due).toEqual([]);
    expect(await first.invoke('reminders.snooze', { id: reminderId, choice: 'oneHour' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('signing out empties the list', async () => {
    await call(core, 'session.signOut', {});
    expect(await call(core, 'reminders.list', {})).toEqual([]);
    first.socket.close();
    second.socket.close();
  });
});
