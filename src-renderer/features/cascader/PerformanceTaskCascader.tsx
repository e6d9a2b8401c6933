import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { performanceTaskTypes, type Performance, type PerformanceTaskType } from '../../../src-shared/domain/performance';
import type { FieldOption } from '../../../src-shared/form/field-config';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedRead } from '../cached-reads/useCachedRead';
import { Cascader } from './Cascader';

// The scene config dialog's performance task cascader (spec 2): the task type, then the
// performance (task definition) of that type; the chosen performance's tasks are what the scene
// lists, none chosen lists them all. Read from the server and kept for offline use.

function performanceOptions(performances: readonly Performance[], typeLabel: (type: PerformanceTaskType) => string): FieldOption[] {
  return performanceTaskTypes
    .map((type) => ({
      id: `type:${type}`,
      name: typeLabel(type),
      children: performances.filter((p) => p.type === type).map((p) => ({ id: p.id, name: p.name })),
    }))
    .filter((node) => node.children.length > 0);
}

export function PerformanceTaskCascader({ value, onChange, disabled }: { value: string | null; onChange(value: string | null): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const { answer, isFetching } = useCachedRead({ endpoint: 'performanceList' });
  const options = useMemo(() => {
    const labels = t('scenes.taskTypes', { returnObjects: true });
    return performanceOptions(answer?.value.performanceList ?? [], (type) => (type === 'custom' ? t('cascader.custom') : labels[type]));
  }, [answer, t]);
  return (
    <>
      <Cascader
        testId="performance-cascader"
        id="scene-config-performance"
        options={options}
        value={value}
        onChange={onChange}
        placeholder={t('cascader.allPerformanceTasks')}
        disabled={disabled || (!answer && isFetching)}
      />
      <AsOfNote answer={answer} testId="performance-cascader-as-of" />
    </>
  );
}
