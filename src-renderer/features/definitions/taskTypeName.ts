import type { TFunction } from 'i18next';
import type { PerformanceTaskType } from '../../../src-shared/domain/performance';

/** A performance's task type in the user's language: the ledger's names, and the quick task's for `custom`. */
export function taskTypeName(t: TFunction, type: PerformanceTaskType): string {
  return type === 'custom' ? t('dashboard.quickTask.custom') : t(`scenes.taskTypes.${type}`);
}
