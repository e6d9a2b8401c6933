import { RuleScope } from '../domain/enums';
import type { AbbrSetting, NumberingRuleForm, PreviewRule } from '../domain/numbering';
import { firstSerial, formatNumber, type NumberingRule, type NumberPrefix } from './numbering';

// The numbering settings screen's live preview (issue 15): the number a rule being edited will
// give next, before it is saved. The same prefix choice as the server's allocator
// (src-server/numbering/service.ts): the rule's own abbreviation, else the default scope's.

export function prefixFor(settings: readonly Pick<AbbrSetting, 'ruleScope' | 'scopeId' | 'abbr' | 'dateFormat'>[], ruleScope: RuleScope, scopeId: string | null): NumberPrefix {
  const own = settings.find((s) => s.ruleScope === ruleScope && s.scopeId === scopeId);
  const setting = own ?? settings.find((s) => s.ruleScope === RuleScope.Default);
  return { abbr: setting?.abbr ?? '', dateFormat: setting?.dateFormat ?? null };
}

export type RuleCounters = NonNullable<PreviewRule['counters']>;

/**
 * The serial a rule hands out next, as the allocator counts (src-server/numbering/service.ts): on
 * from the current period's counter, else the restart number after an earlier period, else the
 * start number. A rule keeps its counters when edited.
 */
export function nextSerial(rule: Pick<NumberingRule, 'startNumber' | 'resetStartNumber'>, counters: RuleCounters | undefined): number {
  if (counters?.lastInPeriod != null) return counters.lastInPeriod + 1;
  return firstSerial(rule, !counters?.counted);
}

/** The next number of a rule as edited: a new rule counts from its start number, a saved one on from its counters. */
export function nextNumberPreview(
  rule: Pick<NumberingRuleForm, 'digits' | 'isNatural' | 'startNum' | 'reStartNum'>,
  prefix: NumberPrefix,
  at: Date,
  counters?: RuleCounters,
): string {
  return formatNumber(rule, prefix, nextSerial({ startNumber: rule.startNum, resetStartNumber: rule.reStartNum }, counters), at);
}
