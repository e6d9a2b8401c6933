import type { TaskState } from '../../../src-shared/domain/enums';
import { taskStateKeys } from '../../../src-shared/domain/ledger-cells';
import type { Catalog } from '../../../src-shared/i18n/catalogs';

/** Each task state's key in the `taskState` catalog: the ledger's names (one name per state everywhere). */
export const stateLabels: Record<TaskState, keyof Catalog['taskState']> = taskStateKeys;
