import { describe, expect, it } from 'vitest';
import { NumberDateFormat, RuleScope } from '../../src-shared/domain/enums';
import { numberingRuleFormSchema } from '../../src-shared/domain/numbering';
import { nextNumberPreview, prefixFor } from '../../src-shared/rules/numbering-preview';

// 2026-11-21 20:00 in Beijing.
const at = new Date('2026-11-21T12:00:00Z');
const typeA = '0190a000-0000-7000-8000-000000000001';
const typeB = '0190a000-0000-7000-8000-000000000002';
const settings = [
  { ruleScope: RuleScope.Default, scopeId: null, abbr: 'HT', dateFormat: NumberDateFormat.Year },
  { ruleScope: RuleScope.ContractType, scopeId: typeA, abbr: 'CG', dateFormat: NumberDateFormat.YearMonthDay },
];

describe('the numbering settings preview', () => {
  it('takes the rule’s own abbreviation, else the default scope’s, else none', () => {
    expect(prefixFor(settings, RuleScope.ContractType, typeA)).toEqual({ abbr: 'CG', dateFormat: NumberDateFormat.YearMonthDay });
    expect(prefixFor(settings, RuleScope.ContractType, typeB)).toEqual({ abbr: 'HT', dateFormat: NumberDateFormat.Year });
    expect(prefixFor([], RuleScope.Default, null)).toEqual({ abbr: '', dateFormat: null });
  });

  it('shows the next number of the spec’s default rule as 1 with the prefix', () => {
    const defaults = numberingRuleFormSchema.parse({});
    expect(defaults).toMatchObject({ digits: 1, startNum: 1, reStartNum: 1, isNatural: true, resetCycle: 0 });
    expect(nextNumberPreview(defaults, prefixFor(settings, RuleScope.Default, null), at)).toBe('HT-2026-1');
    expect(nextNumberPreview(defaults, { abbr: '', dateFormat: null }, at)).toBe('1');
  });

  it('pads the start number to the digits unless the serial is natural', () => {
    const prefix = prefixFor(settings, RuleScope.ContractType, typeA);
    expect(nextNumberPreview({ digits: 4, isNatural: false, startNum: 7, reStartNum: 1 }, prefix, at)).toBe('CG-20261121-0007');
    expect(nextNumberPreview({ digits: 4, isNatural: true, startNum: 7, reStartNum: 1 }, prefix, at)).toBe('CG-20261121-7');
    expect(nextNumberPreview({ digits: 2, isNatural: false, startNum: 123, reStartNum: 1 }, prefix, at)).toBe('CG-20261121-123');
  });
});
