import type { Language } from '../../../src-shared/i18n/languages';
import { AppFailure } from '../../../src-shared/errors';
import { organisationDay } from '../../../src-shared/rules/performance';
import { planRows } from '../../../src-shared/rules/fulfilment';
import { v7 as uuidv7 } from 'uuid';
import type { CoreFeature, FeatureHost } from '../feature';
import type { ActiveSession } from '../session/session-service';
import { reminderLog } from './reminder-log';
import type { DueReminder } from './reminders/rules';
import { createReminderScheduler, systemTimers, type Notifier, type ReminderScheduler, type SnoozeChoice, type Timers } from './reminders/scheduler';
import { createDashboardReader, type DashboardReader } from './dashboard-store';
import { performanceMutations } from './dashboard-mutations';
import { createTaskReader, reminderSettingsPullWriter, taskPullWriter, type TaskReader } from './task-store';
import { createFulfilmentReader, planOverlay, planPullWriter, taskOverlay } from './fulfilment-store';
import { fulfilmentMutations } from './mutations';

// Performance (spec 5): the pulled tasks and the user's reminder settings, and the reminders of
// due tasks computed from them in the core, also offline; a contract's tasks for its performance tab.

export const performanceReplica = {
  mutations: { ...fulfilmentMutations, ...performanceMutations },
  pulled: { performanceTask: taskPullWriter, reminderSettings: reminderSettingsPullWriter, performancePlan: planPullWriter },
  overlays: { performanceTask: taskOverlay, performancePlan: planOverlay },
};

export type PerformanceChannel =
  | 'fulfilment.contract'
  | 'fulfilment.finishForm'
  | 'fulfilment.finish'
  | 'fulfilment.finishBatch'
  | 'fulfilment.restore'
  | 'fulfilment.deleteTask'
  | 'fulfilment.restoreTask'
  | 'fulfilment.deleteQuickTask'
  | 'fulfilment.savePlan'
  | 'fulfilment.createPlan'
  | 'fulfilment.deletePlan'
  | 'fulfilment.relateCandidates'
  | 'fulfilment.relate'
  | 'fulfilment.unrelate'
  | 'performance.statistics'
  | 'performance.board'
  | 'performance.quickTask'
  | 'performance.reminderSettings'
  | 'performance.saveReminderSettings';

/** What the shell's notifier asks of the core's reminders. */
export interface CoreReminders {
  /** Whether the task is in the replica and unfinished; false when signed out. */
  taskIsOpen(taskId: string): boolean;
  snooze(reminder: DueReminder, choice: SnoozeChoice): void;
  /** Re-reads tasks and settings now (after a resume from sleep, or a change of language). */
  refresh(): void;
}

export interface PerformanceOptions {
  notifier: Notifier;
  timers?: Timers;
  /** The language reminders are written in. */
  language(): Language;
  /** The user's IANA time zone; the system's by default. */
  timeZone?: () => string;
}

/** How long the reminders wait after a change of tasks or settings before they are recomputed. */
const reminderRefreshDelayMs = 200;

export function createPerformanceFeature(host: FeatureHost, options: PerformanceOptions): CoreFeature<PerformanceChannel> & { reminders: CoreReminders } {
  let reminders: { scheduler: ReminderScheduler; tasks: TaskReader; dashboard: DashboardReader } | null = null;

  // A pull round, a push's answers or a settings change announce changed tasks or reminder
  // settings (sync-service). The reminders are recomputed over every task of the user, so a burst
  // (a pull's pages) recomputes them once, shortly after, and never inside the call that caused
  // it: the screen the user is looking at updates first.
  const timers = options.timers ?? systemTimers;
  let pendingRefresh: unknown = null;
  // A local edit of tasks announces itself too, but needs no such recomputation: a finish, a
  // delete or a quick task (not a reminder until the pull brings it) takes no reminder earlier
  // than the next wake, which reads every task again. A restore may bring reminders back, and a
  // plan added brings new ones: their tasks alone are looked at, shortly after.
  let editing = false;
  const restored = new Set<string>();
  let pendingRestored: unknown = null;
  function locally<T>(edit: () => T, restoring: readonly string[] = []): T {
    editing = true;
    let result: T;
    try {
      result = edit();
    } finally {
      editing = false;
    }
    for (const id of restoring) restored.add(id);
    if (restored.size > 0 && pendingRestored === null) {
      pendingRestored = timers.set(() => {
        pendingRestored = null;
        const ids = [...restored];
        restored.clear();
        reminders?.scheduler.refreshTasks(ids);
      }, reminderRefreshDelayMs);
    }
    return result;
  }
  host.hub.subscribe((event, payload) => {
    if (event !== 'data.changed' || editing || pendingRefresh !== null) return;
    const { entities } = payload as { entities: string[] };
    if (!entities.includes('performanceTask') && !entities.includes('reminderSettings')) return;
    refreshSoon();
  });
  /** A sync round announces changes as its pushes settle and its pages come: the reminders wait for its end and are recomputed once. */
  function refreshSoon() {
    pendingRefresh = timers.set(() => {
      pendingRefresh = null;
      if (!reminders) return;
      if (host.sync().syncing()) refreshSoon();
      else reminders.scheduler.refresh();
    }, reminderRefreshDelayMs);
  }

  function current() {
    host.signedIn();
    if (!reminders) throw new AppFailure('not_signed_in');
    return reminders;
  }
  /** "Today" as the server counts it: the organisation's calendar day. */
  const today = () => organisationDay(host.clock.now());
  /** A queued edit shows at once: on screens, and in the reminders (through the hub, as a pull would). */
  const changed = (entity: 'performanceTask' | 'reminderSettings') => host.hub.emit('data.changed', { entities: [entity] });

  return {
    handlers: {
      'fulfilment.contract': ({ contractId }) => createFulfilmentReader(host.signedIn().replica.db).contract(contractId, today()),
      'fulfilment.finishForm': ({ taskId, batch }) => createFulfilmentReader(host.signedIn().replica.db).finishForm(taskId, batch),
      'fulfilment.finish': (args) => locally(() => host.sync().edit('performance.finishTask', args)),
      'fulfilment.finishBatch': (args) => locally(() => host.sync().edit('performance.finishTasks', args)),
      'fulfilment.restore': (args) => locally(() => host.sync().edit('performance.restoreTasks', args), args.planIDList),
      'fulfilment.deleteTask': (args) => locally(() => host.sync().edit('performance.deletePlanTask', args)),
      'fulfilment.restoreTask': (args) => locally(() => host.sync().edit('performance.restoreTask', args), [args.id]),
      'fulfilment.deleteQuickTask': (args) => locally(() => host.sync().edit('performance.deleteTask', args)),
      'fulfilment.savePlan': (args) => host.sync().edit('performance.savePlan', args),
      'fulfilment.deletePlan': (args) => locally(() => host.sync().edit('performance.deletePlan', args)),
      // The new tasks are reminders at once: they alone are looked at, shortly after (as a restore's).
      'fulfilment.createPlan': ({ performanceId, performance, plan }) => {
        const planId = uuidv7();
        // One task id per row the schedule makes (the shared rule; a schedule it refuses is refused here).
        const scheduleTaskIds = planRows({ ...plan, rows: [] }).map(() => uuidv7());
        const rows = plan.rows.map((row) => ({ ...row, id: uuidv7() }));
        const args = { planId, performanceId, performance, plan: { ...plan, scheduleTaskIds, rows } };
        const { mutationId } = locally(() => host.sync().edit('performance.createPlan', args), [...scheduleTaskIds, ...rows.map((row) => row.id)]);
        return { id: planId, mutationId };
      },
      'fulfilment.relateCandidates': ({ taskId }) => createFulfilmentReader(host.signedIn().replica.db).relateCandidates(taskId, today()),
      'fulfilment.relate': (args) => locally(() => host.sync().edit('performance.relateTask', args)),
      'fulfilment.unrelate': (args) => locally(() => host.sync().edit('performance.unrelateTask', args)),
      'performance.statistics': (range) => current().dashboard.statistics(range, today()),
      'performance.board': ({ perDay, ...range }) => ({ today: today(), days: current().dashboard.board(range, today(), perDay) }),
      'performance.quickTask': ({ payload }) => {
        const id = uuidv7();
        const { mutationId } = locally(() => {
          const edit = host.sync().edit('performance.quickTask', { id, payload });
          changed('performanceTask');
          return edit;
        });
        return { id, mutationId };
      },
      'performance.reminderSettings': () => {
        const settings = current().dashboard.reminderSettings(host.signedIn().user.id);
        if (!settings) throw new AppFailure('not_found', 'the reminder settings have not been synced yet');
        return settings;
      },
      'performance.saveReminderSettings': ({ settings }) => {
        const result = host.sync().edit('performance.reminderSettings', { settings });
        changed('reminderSettings');
        return result;
      },
    },
    /** One scheduler per signed-in session, over that user's replica. */
    start(session: ActiveSession) {
      const tasks = createTaskReader(session.replica.sqlite);
      const dashboard = createDashboardReader(session.replica.sqlite);
      const scheduler = createReminderScheduler({
        clock: host.clock,
        timers: options.timers ?? systemTimers,
        tasks: { tasks: (ids, dueBy) => tasks.reminderTasks(session.user.id, ids, dueBy) },
        settings: { settings: () => dashboard.reminderSettings(session.user.id) },
        log: reminderLog(session.replica),
        notifier: options.notifier,
        logger: host.logger,
        language: options.language,
        zone: options.timeZone,
      });
      scheduler.start();
      reminders = { scheduler, tasks, dashboard };
    },
    stop() {
      if (pendingRefresh !== null) timers.clear(pendingRefresh);
      pendingRefresh = null;
      if (pendingRestored !== null) timers.clear(pendingRestored);
      pendingRestored = null;
      restored.clear();
      reminders?.scheduler.stop();
      reminders = null;
    },
    reminders: {
      taskIsOpen: (taskId) => reminders?.tasks.taskIsOpen(taskId) ?? false,
      snooze(reminder, choice) {
        if (!reminders?.scheduler.snooze(reminder, choice)) host.logger.warn(`reminder ${reminder.id}: nothing to snooze`);
      },
      refresh: () => reminders?.scheduler.refresh(),
    },
  };
}
