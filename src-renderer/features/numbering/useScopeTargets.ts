import { useMemo } from 'react';
import { RuleScope } from '../../../src-shared/domain/enums';
import { useServerRead } from '../manage/serverData';

export interface ScopeTarget {
  id: string;
  name: string;
}

/** What a rule or abbreviation of a scope is for: contract types (scope 1) or departments (scopes 2, 3). */
export function useScopeTargets() {
  const types = useServerRead('contractTypeList');
  const departments = useServerRead('departmentDirectory');
  return useMemo(() => {
    const typeList: ScopeTarget[] = types.answer?.value.list ?? [];
    const departmentList: ScopeTarget[] = departments.answer?.value.list ?? [];
    const targetsOf = (scope: RuleScope): ScopeTarget[] => (scope === RuleScope.Default ? [] : scope === RuleScope.ContractType ? typeList : departmentList);
    const nameOf = (scope: RuleScope, id: string | null) => (id === null ? null : (targetsOf(scope).find((target) => target.id === id)?.name ?? id));
    return { targetsOf, nameOf };
  }, [types.answer, departments.answer]);
}
