import { RuleScope } from '../domain/enums';
import type { PreviewRule } from '../domain/numbering';

// Which numbering rule numbers a contract (spec 4 "Numbering enums", issue 29): its contract
// type's rule (scope 1) or its initiator's department's (scopes 2 and 3), else the default rule
// (scope 0). One choice for the server's allocator and auto_preview, the core's provisional number
// offline and the form's number field, so the number previewed is the number given.

/** A rule as far as choosing goes: its scope and the contract type or department it is for. */
export interface ScopedRule {
  ruleScope: RuleScope;
  /** The contract type (scope 1) or department (scopes 2, 3); null for the default rule. */
  scopeId: string | null;
}

/**
 * The contract type or departments a contract matches under a scope, most specific first: its
 * type (scope 1); its initiator's main department (scope 2); the initiator's department and its
 * ancestors (scope 3, a department's rule covering its subordinate departments).
 */
export type ScopeKeys = (scope: Exclude<RuleScope, typeof RuleScope.Default>) => readonly string[];

/** The rule in use that applies: the first scoped rule matching the contract, else the default rule. */
export function applicableRule<R extends ScopedRule>(rulesInUse: readonly R[], keysOf: ScopeKeys): R | undefined {
  for (const scope of [RuleScope.ContractType, RuleScope.InitiatorMainDepartment, RuleScope.InitiatorDepartmentTree] as const) {
    const scoped = rulesInUse.filter((rule) => rule.ruleScope === scope);
    if (scoped.length === 0) continue;
    for (const key of keysOf(scope)) {
      const rule = scoped.find((candidate) => candidate.scopeId === key);
      if (rule) return rule;
    }
  }
  return rulesInUse.find((rule) => rule.ruleScope === RuleScope.Default);
}

/** A preview rule as a scoped rule (its one value is the type or department it is for). */
function scopedPreview(rule: PreviewRule): PreviewRule & ScopedRule {
  return { ...rule, ruleScope: rule.conditionType, scopeId: rule.values[0] ?? null };
}

/**
 * The drafting catalogue's rule for a contract of this type, offline as online. The catalogue keeps
 * every contract type's rule, and of the department rules only the initiator's (auto_preview's
 * answer for them, which knows their main department and the department tree), so a department
 * rule kept there is the initiator's.
 */
export function catalogueRuleFor(preview: readonly PreviewRule[], contractTypeId: string | null): PreviewRule | undefined {
  const initiatorDepartments = preview.filter((rule) => rule.conditionType !== RuleScope.ContractType).flatMap((rule) => rule.values);
  const chosen = applicableRule(preview.map(scopedPreview), (scope) => (scope === RuleScope.ContractType ? (contractTypeId === null ? [] : [contractTypeId]) : initiatorDepartments));
  return chosen && preview.find((rule) => rule.id === chosen.id);
}
