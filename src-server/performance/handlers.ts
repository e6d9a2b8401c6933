import type { performanceEndpoints } from '../../src-shared/api/performance';
import { defaultPerformanceForm, organisationDay } from '../../src-shared/rules/performance';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import { ifMatchVersion } from '../http/write-safety';
import {
  completeForm,
  createPerformance,
  deletePerformance,
  deletePlan,
  listPerformances,
  performanceForm,
  readReminderSettings,
  savePlan,
  saveReminderSettings,
  taskScheduling,
  taskStatistics,
  tasksByContract,
  updatePerformance,
} from './performances';
import {
  canBeFront,
  checkFront,
  createQuickTask,
  deleteTask,
  finishTask,
  finishTasks,
  frontTasks,
  relateTasks,
  restoreTask,
  restoreTasks,
  unrelateTask,
  updateTask,
} from './repository';
import { findTask } from './tasks';

/** The performance endpoints (spec 7 "Performance tasks and plans"); every one checks visibility. */
export function performanceHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof performanceEndpoints> {
  const today = () => organisationDay(now());
  return {
    performanceTaskDelete: ({ user, params, headers }) => deleteTask(db, user, params.id, ifMatchVersion(headers), today()),
    performanceTaskUpdate: ({ user, params, body, headers }) => updateTask(db, user, params.id, body, today(), headers),
    performanceTaskFinish: ({ user, params, body, headers }) => finishTask(db, user, params.id, body, now(), today(), headers),
    performanceTaskRestore: ({ user, params, headers }) => restoreTask(db, user, params.id, today(), headers),
    performanceTaskRelate: ({ user, params, body }) => relateTasks(db, user, params.id, body.frontTaskIDList),
    performanceTaskUnrelate: ({ user, params, query }) => unrelateTask(db, user, params.id, query.frontTaskID),
    performanceTaskFrontTasks: ({ user, params }) => frontTasks(db, user, params.id),
    performanceTaskCompleteForm: async ({ user, params }) => completeForm(db, (await findTask(db, user, params.id)).task),
    performanceQuickTask: ({ user, body }) => createQuickTask(db, user, body, today()),
    performanceTaskCanBeFront: ({ user, query }) => canBeFront(db, user, query),
    performanceTaskCheckFront: ({ user, query }) => checkFront(db, user, query.contractID, query.currentTaskID),
    performanceTasksByContract: ({ user, query }) => tasksByContract(db, user, query.contractID, today()),
    performancePlanTaskDelete: ({ user, params, body, headers }) => deleteTask(db, user, body.planID, ifMatchVersion(headers), today(), params.id),
    performanceFinishTasks: ({ user, params, body }) => finishTasks(db, user, params.id, body, now(), today()),
    performanceRestoreTasks: ({ user, params, body }) => restoreTasks(db, user, params.id, body.planIDList, today()),
    performancePlanSave: ({ user, params, body, headers }) => savePlan(db, user, params.id, body, today(), headers),
    performancePlanDelete: ({ user, params, query, headers }) => deletePlan(db, user, params.id, query.contractID, ifMatchVersion(headers), today()),
    performanceStatistics: ({ user, query }) => taskStatistics(db, user, query, today()),
    performanceReminderSettings: ({ user }) => readReminderSettings(db, user),
    performanceReminderSettingsSave: ({ user, body }) => saveReminderSettings(db, user, body),
    performanceTaskScheduling: ({ user, query }) => taskScheduling(db, user, query, today()),
    performanceList: ({ user, query }) => listPerformances(db, user, query),
    performanceCreate: ({ user, body }) => createPerformance(db, user, body),
    performanceUpdate: ({ user, params, body, headers }) => updatePerformance(db, user, params.id, body, headers),
    performanceDelete: ({ user, params, headers }) => deletePerformance(db, user, params.id, ifMatchVersion(headers)),
    performanceForm: ({ user, params, query }) => performanceForm(db, user, params.id, query.contractID, today()),
    performanceDefaultForm: async ({ query }) => defaultPerformanceForm(query.type),
  };
}
