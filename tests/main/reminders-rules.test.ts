import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastDueWithRemindersBefore, remindersDue, type DueReminder } from '../../src-main/core/performance/reminders/rules';
import { TaskState, taskTypes } from '../../src-shared/domain/enums';
import {
  otherReminderTimes,
  reminderKindOf,
  reminderKindSettingsSchema,
  reminderSettingsSchema,
  repeatReminderTypes,
  timeNodeReminderTypes,
  type ReminderTask,
} from '../../src-shared/domain/reminders';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import { at, kindSettings, localOf, settingsForAll, task } from './reminders-fixtures';

const year = (zone: string) => ({ zone, from: at('2026-01-01T00:00', zone), to: at('2027-01-01T00:00', zone) });
const oneDay = (day: string, zone: string) => ({ zone, from: at(`${day}T00:00`, zone), to: at(`${day}T23:59:59`, zone) });
const days = (reminders: DueReminder[]) => reminders.map((r) => r.occurrence);

describe('reminder settings', () => {
  const specMessage = 'Please set the reminder for the date or the node time of performance';

  it('refuses a kind with no time-node type chosen, with the spec message', () => {
    const result = reminderKindSettingsSchema.safeParse(kindSettings({ timeNode: { reminderTypes: [], otherTimes: [] } }));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['timeNode.reminderTypes', specMessage]]);
    expect(en.messages.reminderTypeRequired).toBe(specMessage);
  });

  it('counts "other" with no other time as no choice', () => {
    const result = reminderKindSettingsSchema.safeParse(kindSettings({ timeNode: { reminderTypes: ['other'], otherTimes: [] } }));
    expect(result.error?.issues[0]?.message).toBe(specMessage);
  });

  it('refuses the whole settings object when one kind has no type, naming the kind', () => {
    const settings = settingsForAll(kindSettings());
    const result = reminderSettingsSchema.safeParse({ ...settings, invoiceTask: kindSettings({ timeNode: { reminderTypes: [], otherTimes: ['oneDay'] } }) });
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['invoiceTask.timeNode.reminderTypes']);
  });

  it('defaults condition and overdue reminders to weekly and checks the reminder time', () => {
    const parsed = reminderKindSettingsSchema.parse({ timeNode: { reminderTypes: ['onDue'] }, condition: {}, overTime: {}, reminderTime: '18:30' });
    expect(parsed).toEqual({
      timeNode: { reminderTypes: ['onDue'], otherTimes: [] },
      condition: { reminderType: 'weekly' },
      overTime: { reminderType: 'weekly' },
      reminderTime: '18:30',
    });
    for (const bad of ['24:00', '9:00', '09:60', '']) {
      expect(reminderKindSettingsSchema.safeParse(kindSettings({ reminderTime: bad })).success).toBe(false);
    }
  });

  it('maps every task type to its settings kind; recall and unknown types are others', () => {
    expect(Object.fromEntries(taskTypes.map((t) => [t, reminderKindOf(t)]))).toEqual({
      receivable: 'receivableTask',
      collection: 'receivableTask',
      payable: 'paymentTask',
      payment: 'paymentTask',
      invoicing: 'invoiceTask',
      expiration: 'expirationTask',
      recall: 'othersTask',
    });
    expect(reminderKindOf('constructor')).toBe('othersTask');
  });

  it('has the reminder texts in both catalogs', () => {
    expect(Object.keys(zhCN.reminders).sort()).toEqual(Object.keys(en.reminders).sort());
    expect(Object.keys(zhCN.reminders.title).sort()).toEqual(Object.keys(en.reminders.title).sort());
  });
});

describe('reminder rules', () => {
  const zone = 'Asia/Shanghai';

  it('fires each time node on its day at the reminder time, once', () => {
    const settings = settingsForAll(
      kindSettings({ timeNode: { reminderTypes: ['threeDaysBefore', 'oneWeekBefore', 'onDue', 'other'], otherTimes: [...otherReminderTimes] } }),
    );
    const due = remindersDue({ tasks: [task()], settings, ...year(zone) }).filter((r) => r.rule !== 'condition' && r.rule !== 'overdue');
    expect(due.map((r) => [r.rule, localOf(r.at, zone)])).toEqual([
      ['oneQuarter', '2026-03-15T09:00'],
      ['twoMonths', '2026-04-15T09:00'],
      ['oneMonth', '2026-05-15T09:00'],
      ['twoWeeks', '2026-06-01T09:00'],
      ['oneWeekBefore', '2026-06-08T09:00'],
      ['fiveDays', '2026-06-10T09:00'],
      ['threeDaysBefore', '2026-06-12T09:00'],
      ['twoDays', '2026-06-13T09:00'],
      ['oneDay', '2026-06-14T09:00'],
      ['onDue', '2026-06-15T09:00'],
    ]);
    expect(due[0]?.id).toBe('t1|oneQuarter|2026-03-15');
  });

  it('repeats condition reminders from the earliest time node until the due date, skipping node days', () => {
    const daily = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['oneWeekBefore', 'threeDaysBefore'], otherTimes: [] }, condition: { reminderType: 'daily' } }));
    const condition = (s: typeof daily) => days(remindersDue({ tasks: [task()], settings: s, ...year(zone) }).filter((r) => r.rule === 'condition'));
    expect(condition(daily)).toEqual(['2026-06-09', '2026-06-10', '2026-06-11', '2026-06-13', '2026-06-14']);
    const weekly = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['other'], otherTimes: ['twoMonths'] } }));
    expect(condition(weekly)).toEqual(['2026-04-22', '2026-04-29', '2026-05-06', '2026-05-13', '2026-05-20', '2026-05-27', '2026-06-03', '2026-06-10']);
    const monthly = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['other'], otherTimes: ['oneQuarter'] }, condition: { reminderType: 'monthly' } }));
    expect(condition(monthly)).toEqual(['2026-04-15', '2026-05-15']);
    const onDueOnly = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] }, condition: { reminderType: 'daily' } }));
    expect(condition(onDueOnly)).toEqual([]);
  });

  it('repeats overdue reminders after the due date, monthly ones anchored to the due day', () => {
    const overdue = (type: (typeof repeatReminderTypes)[number], dueDate: string) =>
      days(
        remindersDue({
          tasks: [task({ dueDate, state: TaskState.Overdue })],
          settings: settingsForAll(kindSettings({ overTime: { reminderType: type } })),
          ...year(zone),
        }).filter((r) => r.rule === 'overdue'),
      );
    expect(overdue('monthly', '2026-01-31')).toEqual([
      '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31',
      '2026-08-31', '2026-09-30', '2026-10-31', '2026-11-30', '2026-12-31',
    ]);
    expect(overdue('weekly', '2026-12-01')).toEqual(['2026-12-08', '2026-12-15', '2026-12-22', '2026-12-29']);
    const daily = overdue('daily', '2025-06-01');
    expect(daily).toHaveLength(365);
    expect(daily[0]).toBe('2026-01-01');
  });

  it('never reminds of a finished task, and skips a due date that names no day', () => {
    const settings = settingsForAll(kindSettings({ condition: { reminderType: 'daily' }, overTime: { reminderType: 'daily' } }));
    expect(remindersDue({ tasks: [task({ state: TaskState.Success })], settings, ...year(zone) })).toEqual([]);
    expect(remindersDue({ tasks: [task({ dueDate: '2026-02-30' })], settings, ...year(zone) })).toEqual([]);
  });

  it('uses the settings of the task kind', () => {
    const settings = settingsForAll(kindSettings());
    settings.paymentTask = kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] }, reminderTime: '17:45' });
    const due = remindersDue({ tasks: [task({ type: 'payable' })], settings, ...year(zone) });
    expect(due.map((r) => [r.kind, r.rule, localOf(r.at, zone)])[0]).toEqual(['paymentTask', 'onDue', '2026-06-15T17:45']);
  });

  it.each([
    ['Europe/Berlin', '2026-03-29', '2026-10-25'],
    ['America/New_York', '2026-03-08', '2026-11-01'],
    ['Asia/Shanghai', null, null],
  ])('keeps 09:00 local every day of the year in %s, across its DST switches', (zone, springForward, fallBack) => {
    const settings = settingsForAll(kindSettings({ overTime: { reminderType: 'daily' } }));
    const due = remindersDue({ tasks: [task({ dueDate: '2025-12-31' })], settings, ...year(zone) });
    expect(due).toHaveLength(365);
    expect(new Set(due.map((r) => r.id)).size).toBe(365);
    expect(due.every((r) => localOf(r.at, zone) === `${r.occurrence}T09:00`)).toBe(true);
    // The UTC hour moves with the offset exactly where the zone switches, and nowhere else.
    const switches = due.flatMap((r, i) => (i > 0 && r.at.getUTCHours() !== due[i - 1]?.at.getUTCHours() ? [r.occurrence] : []));
    expect(switches).toEqual([springForward, fallBack].filter((d) => d !== null));
  });

  it.each([
    ['Europe/Berlin', '2026-03-29', '02:30', '2026-03-29T01:00:00.000Z'],
    ['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:00:00.000Z'],
  ])('in %s, a reminder time skipped on the spring-forward day fires when the clocks jump', (zone, day, time, instant) => {
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] }, reminderTime: time }));
    const due = remindersDue({ tasks: [task({ dueDate: day })], settings, ...oneDay(day, zone) });
    expect(due.map((r) => r.at.toISOString())).toEqual([instant]);
    expect(localOf(due[0]!.at, zone)).toBe(`${day}T03:00`);
  });

  it('fires a reminder time repeated on the fall-back day once', () => {
    const zone = 'America/New_York';
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] }, reminderTime: '01:30' }));
    const due = remindersDue({ tasks: [task({ dueDate: '2026-11-01' })], settings, ...oneDay('2026-11-01', zone) });
    expect(due).toHaveLength(1);
    expect(localOf(due[0]!.at, zone)).toBe('2026-11-01T01:30');
  });

  it('places the same day at the reminder time of whichever zone it is asked in', () => {
    const settings = settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] } }));
    const instantIn = (zone: string) =>
      remindersDue({ tasks: [task()], settings, ...year(zone) }).filter((r) => r.rule === 'onDue').map((r) => [r.id, r.at.toISOString()]);
    expect(instantIn('Asia/Shanghai')).toEqual([['t1|onDue|2026-06-15', '2026-06-15T01:00:00.000Z']]);
    expect(instantIn('America/New_York')).toEqual([['t1|onDue|2026-06-15', '2026-06-15T13:00:00.000Z']]);
  });

  it('refuses an unknown time zone', () => {
    expect(() => remindersDue({ tasks: [task()], settings: settingsForAll(kindSettings()), ...year('UTC'), zone: 'Mars/Olympus' })).toThrow(RangeError);
  });
});

describe('reminder rules, properties', () => {
  const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Shanghai', 'Australia/Lord_Howe', 'UTC'];
  const dayMs = 86_400_000;
  const start = Date.UTC(2025, 0, 1);
  const kindArb = fc.record({
    timeNode: fc.record({
      reminderTypes: fc.uniqueArray(fc.constantFrom(...timeNodeReminderTypes), { minLength: 1 }),
      otherTimes: fc.uniqueArray(fc.constantFrom(...otherReminderTimes), { minLength: 1 }),
    }),
    condition: fc.record({ reminderType: fc.constantFrom(...repeatReminderTypes) }),
    overTime: fc.record({ reminderType: fc.constantFrom(...repeatReminderTypes) }),
    reminderTime: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  });
  const taskArb = fc.record({
    type: fc.constantFrom(...taskTypes, 'other'),
    state: fc.constantFrom(TaskState.NotStarted, TaskState.InProgress, TaskState.Overdue, TaskState.Success, TaskState.Incomplete),
    dueDate: fc.integer({ min: 0, max: 730 }).map((d) => new Date(start + d * dayMs).toISOString().slice(0, 10)),
    contractId: fc.option(fc.constant('c'), { nil: null }),
  });
  const tasksArb = fc.array(taskArb, { maxLength: 6 }).map((ts) => ts.map((t, i): ReminderTask => ({ ...t, id: `t${i}`, name: `task ${i}` })));
  const settingsArb = fc.record({
    receivableTask: kindArb, paymentTask: kindArb, invoiceTask: kindArb, expirationTask: kindArb, othersTask: kindArb,
  });
  const cutsArb = fc.tuple(...[0, 1, 2].map(() => fc.integer({ min: 0, max: 800 * dayMs }))).map((cuts) => cuts.sort((x, y) => x - y).map((ms) => new Date(start + ms)));

  it('gives unique ids, never a finished task, and splits windows with no double and no gap', () => {
    fc.assert(
      fc.property(tasksArb, settingsArb, fc.constantFrom(...zones), cutsArb, (tasks, rawSettings, zone, [a, b, c]) => {
        const settings = reminderSettingsSchema.parse(rawSettings);
        const whole = remindersDue({ tasks, settings, zone, from: a!, to: c! });
        const left = remindersDue({ tasks, settings, zone, from: a!, to: b! });
        const right = remindersDue({ tasks, settings, zone, from: b!, to: c! });
        expect(new Set(whole.map((r) => r.id)).size).toBe(whole.length);
        expect([...left, ...right].map((r) => r.id)).toEqual(whole.map((r) => r.id));
        expect(whole.every((r) => r.at >= a! && r.at < c!)).toBe(true);
        const finished = new Set(tasks.filter((t) => t.state === TaskState.Success).map((t) => t.id));
        expect(whole.some((r) => finished.has(r.taskId))).toBe(false);
      }),
      { seed: 20261121, numRuns: 150 },
    );
  });

  it('finds no reminder of a task due after lastDueWithRemindersBefore the window’s end', () => {
    fc.assert(
      fc.property(tasksArb, settingsArb, fc.constantFrom(...zones), cutsArb, (tasks, rawSettings, zone, [a, , c]) => {
        const settings = reminderSettingsSchema.parse(rawSettings);
        const lastDue = lastDueWithRemindersBefore(c!, zone);
        const all = remindersDue({ tasks, settings, zone, from: a!, to: c! });
        const read = remindersDue({ tasks: tasks.filter((t) => t.dueDate <= lastDue), settings, zone, from: a!, to: c! });
        expect(read.map((r) => r.id)).toEqual(all.map((r) => r.id));
      }),
      { seed: 20261125, numRuns: 300 },
    );
    // The bound is tight to a few days: a quarter's time node of a task due 92 days on still counts.
    const zone = 'Asia/Shanghai';
    const to = at('2026-03-01T00:00', zone);
    const lastDue = lastDueWithRemindersBefore(to, zone);
    expect(lastDue >= '2026-05-31').toBe(true);
    expect(lastDue <= '2026-06-05').toBe(true);
  });

  // remindersDue works out each due date's reminder days once per kind and shares them: many
  // tasks of every kind on a few due dates must give what each task asked alone gives.
  it('gives for many tasks exactly what each gives alone, whichever share a due date or a kind', () => {
    const crowdArb = fc
      .array(fc.record({ type: taskArb.map((t) => t.type), state: taskArb.map((t) => t.state), day: fc.integer({ min: 0, max: 6 }) }), { minLength: 10, maxLength: 60 })
      .map((ts) => ts.map((t, i): ReminderTask => ({ id: `t${i}`, name: `task ${i}`, contractId: null, type: t.type, state: t.state, dueDate: new Date(start + (400 + t.day) * dayMs).toISOString().slice(0, 10) })));
    fc.assert(
      fc.property(crowdArb, settingsArb, fc.constantFrom(...zones), fc.integer({ min: 380, max: 440 }), (tasks, rawSettings, zone, from) => {
        const settings = reminderSettingsSchema.parse(rawSettings);
        const window = { settings, zone, from: new Date(start + from * dayMs), to: new Date(start + (from + 3) * dayMs) };
        const alone = tasks.flatMap((one) => remindersDue({ ...window, tasks: [one] }));
        const together = remindersDue({ ...window, tasks });
        expect(together.map((r) => [r.id, r.at.getTime()])).toEqual(
          alone.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : 1)).map((r) => [r.id, r.at.getTime()]),
        );
        expect(new Set(together.map((r) => r.at)).size).toBe(together.length);
      }),
      { seed: 20261124, numRuns: 100 },
    );
  });
});
