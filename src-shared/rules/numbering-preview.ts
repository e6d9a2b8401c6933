import { RuleScope } from '../domain/enums';
import type { AbbrSetting, NumberingRuleForm } from '../domain/numbering';
import { formatNumber, type NumberPrefix } from './numbering';

// The numbering settings screen's live preview (issue 15): the number a rule being edited will
// give next, before it is saved. The same prefix choice as the server's allocator
// (src-server/numbering/service.ts): the rule's own abbreviation, else the default scope's.

export function prefixFor(settings: readonly Pick<AbbrSetting, 'ruleScope' | 'scopeId' | 'abbr' | 'dateFormat'>[], ruleScope: RuleScope, scopeId: string | null): NumberPrefix {
  const own = settings.find((s) => s.ruleScope === ruleScope && s.scopeId === scopeId);
  const setting = own ?? settings.find((s) => s.ruleScope === RuleScope.Default);
  return { abbr: setting?.abbr ?? '', dateFormat: setting?.dateFormat ?? null };
}

/** The next number of a rule as edited: a new or changed rule counts from its start number. */
export function nextNumberPreview(rule: Pick<NumberingRuleForm, 'digits' | 'isNatural' | 'startNum'>, prefix: NumberPrefix, at: Date): string {
  return formatNumber(rule, prefix, rule.startNum, at);
}
