import { useMemo } from 'react';
import { caseTypeOptions } from '../../../src-shared/rules/cascader';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedRead } from '../cached-reads/useCachedRead';
import { Cascader, type CascaderChoiceProps, type CascaderProps } from './Cascader';

// The case-type cascader (spec 2 and 3): the tree from `case_type/list/by_user`, kept by the core
// so it answers offline "as of" its time; case types in state 2 are disabled with their children.

export function CaseTypeCascader(props: CascaderChoiceProps) {
  const { answer, isFetching } = useCachedRead({ endpoint: 'caseTypeTree' });
  const options = useMemo(() => caseTypeOptions(answer?.value ?? []), [answer]);
  return (
    <>
      <Cascader {...(props as CascaderProps)} options={options} disabled={props.disabled || (!answer && isFetching)} />
      {!props.preview && <AsOfNote answer={answer} testId={`${props.testId}-as-of`} />}
    </>
  );
}
