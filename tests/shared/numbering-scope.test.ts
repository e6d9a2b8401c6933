import { describe, expect, it } from 'vitest';
import type { RuleScope } from '../../src-shared/domain/enums';
import { NumberDateFormat, ResetCycle } from '../../src-shared/domain/enums';
import type { PreviewRule } from '../../src-shared/domain/numbering';
import { formatNumber } from '../../src-shared/rules/numbering';
import { nextNumberPreview, nextSerial } from '../../src-shared/rules/numbering-preview';
import { applicableRule, catalogueRuleFor, type ScopedRule } from '../../src-shared/rules/numbering-scope';

// Issue 29: one choice of the rule that numbers a contract, for the server, the core and the form:
// the type's rule (scope 1) or the initiator's department's (2, 3), else the default (0).

const scoped = (id: string, ruleScope: RuleScope, scopeId: string | null): ScopedRule & { id: string } => ({ id, ruleScope, scopeId });
const keys = (contractType: string[], main: string[], tree: string[]) => (scope: 1 | 2 | 3) => ({ 1: contractType, 2: main, 3: tree })[scope];

describe('the applicable numbering rule', () => {
  it.each([
    { name: 'the type’s rule', rules: [scoped('a', 1, 't1'), scoped('b', 1, 't2')], keys: keys(['t2'], [], []), chosen: 'b' },
    { name: 'no rule for a type without one', rules: [scoped('a', 1, 't1')], keys: keys(['t9'], ['d1'], ['d1']), chosen: undefined },
    { name: 'no rule without a type', rules: [scoped('a', 1, 't1')], keys: keys([], ['d1'], ['d1']), chosen: undefined },
    { name: 'the main department’s rule', rules: [scoped('a', 2, 'd1'), scoped('b', 2, 'd2')], keys: keys(['t1'], ['d2'], ['d3', 'd2']), chosen: 'b' },
    { name: 'the nearest department up the tree', rules: [scoped('a', 3, 'root'), scoped('b', 3, 'east')], keys: keys([], [], ['east-1', 'east', 'root']), chosen: 'b' },
    { name: 'the default rule', rules: [scoped('d', 0, null)], keys: keys(['t1'], ['d1'], ['d1']), chosen: 'd' },
    { name: 'the default when no scoped rule matches', rules: [scoped('a', 1, 't1'), scoped('d', 0, null)], keys: keys(['t2'], [], []), chosen: 'd' },
    { name: 'the scoped rule before the default', rules: [scoped('d', 0, null), scoped('a', 1, 't1')], keys: keys(['t1'], [], []), chosen: 'a' },
    { name: 'nothing without rules', rules: [], keys: keys(['t1'], ['d1'], ['d1']), chosen: undefined },
  ])('$name', ({ rules, keys: keysOf, chosen }) => {
    expect(applicableRule(rules, keysOf)?.id).toBe(chosen);
  });
});

const preview = (id: string, conditionType: RuleScope, values: string[], format: string): PreviewRule => ({ id, format, conditionType, values, referenceFields: [] });

describe('the drafting catalogue’s rule (offline)', () => {
  const byType = [preview('pa', 1, ['t1'], 'PA-2026-0004'), preview('sa', 1, ['t2'], 'SA-2026-0001')];

  it('numbers by the contract’s type, and by nothing for a type without a rule', () => {
    expect(catalogueRuleFor(byType, 't2')?.format).toBe('SA-2026-0001');
    expect(catalogueRuleFor(byType, 't9')).toBeUndefined();
    expect(catalogueRuleFor(byType, null)).toBeUndefined();
  });

  it('takes the kept department rule as the initiator’s (auto_preview chose it), and the default', () => {
    expect(catalogueRuleFor([preview('east', 3, ['east'], 'HD-0001')], 't1')?.id).toBe('east');
    expect(catalogueRuleFor([preview('main', 2, ['sales'], 'XS-0001')], null)?.id).toBe('main');
    expect(catalogueRuleFor([preview('d', 0, [], 'HT-1')], null)?.id).toBe('d');
    expect(catalogueRuleFor([], 't1')).toBeUndefined();
  });
});

describe('the next serial, on the numbering screen as the allocator counts', () => {
  const rule = { startNumber: 5, resetStartNumber: 1 };

  it('counts on from the current period, restarts after an earlier period, starts a rule never counted', () => {
    expect(nextSerial(rule, { lastInPeriod: 1, counted: true })).toBe(2);
    expect(nextSerial(rule, { lastInPeriod: null, counted: true })).toBe(1);
    expect(nextSerial(rule, { lastInPeriod: null, counted: false })).toBe(5);
    expect(nextSerial(rule, undefined)).toBe(5);
  });

  it('gives the edited rule’s next number as the saved rule’s preview gives it (PA-2026-0002, not -0001)', () => {
    const at = new Date('2026-11-21T12:00:00Z');
    const prefix = { abbr: 'PA', dateFormat: NumberDateFormat.Year };
    const stored = { digits: 4, isNatural: false, startNumber: 1, resetStartNumber: 1, resetCycle: ResetCycle.Year };
    const counters = { lastInPeriod: 1, counted: true };
    const saved = formatNumber(stored, prefix, nextSerial(stored, counters), at);
    expect(saved).toBe('PA-2026-0002');
    expect(nextNumberPreview({ digits: 4, isNatural: false, startNum: 1, reStartNum: 1 }, prefix, at, counters)).toBe(saved);
    // A new rule (no counters) starts at its start number.
    expect(nextNumberPreview({ digits: 4, isNatural: false, startNum: 1, reStartNum: 1 }, prefix, at)).toBe('PA-2026-0001');
  });
});
