import { TaskState } from '../../../src-shared/domain/enums';
import type { Catalog } from '../../../src-shared/i18n/catalogs';

/** Each task state's key in the `taskState` catalog. */
export const stateLabels: Record<TaskState, keyof Catalog['taskState']> = {
  [TaskState.NotStarted]: 'notStarted',
  [TaskState.InProgress]: 'inProgress',
  [TaskState.Overdue]: 'overdue',
  [TaskState.Success]: 'completed',
  [TaskState.Incomplete]: 'incomplete',
};
