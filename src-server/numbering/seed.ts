import { v7 as uuidv7 } from 'uuid';
import { NumberDateFormat, ResetCycle, RuleScope } from '../../src-shared/domain/enums';
import { recountOf } from '../../src-shared/rules/numbering';
import type { ServerDb } from '../db/database';
import { contractTypes } from '../db/schema';
import { contractTypes as contractTypeCatalogue } from '../seed/catalogue';
import type { DemoData } from '../seed/generate';
import { Random } from '../seed/random';
import { numberEditors, numberingAbbrSettings, numberingRules, userMainDepartments } from './schema';

// Demo numbering: the catalogue's contract types, a yearly-reset rule and an abbreviation per
// contract type (e.g. PA-2026-0001), a default template rule (MB-001), and the number editors.

/** Initials of the English name: 'Purchase agreement' → 'PA'. */
function abbreviation(english: string): string {
  return english
    .split(/\s+/)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

export interface SeededNumbering {
  contractTypeIds: string[];
  templateRuleId: string;
}

export async function seedNumbering(tx: ServerDb, data: DemoData, seed: number, at: Date): Promise<SeededNumbering> {
  const random = new Random(seed ^ 0x6e756d);
  const newId = () => uuidv7({ msecs: at.getTime(), random: random.bytes(16) });
  const organisationId = data.organisation.id!;
  const types = contractTypeCatalogue.map((type, sortOrder) => ({ id: newId(), organisationId, name: type.name, sortOrder, createdAt: at, updatedAt: at }));
  await tx.insert(contractTypes).values(types);

  const yearly = { digits: 4, isNatural: false, startNumber: 1, resetStartNumber: 1, resetCycle: ResetCycle.Year, recount: recountOf(ResetCycle.Year), inUse: true };
  await tx.insert(numberingRules).values(
    types.map((type) => ({ id: newId(), organisationId, kind: 'contract' as const, ruleScope: RuleScope.ContractType, scopeKey: type.id, ...yearly, updateTime: at })),
  );
  await tx.insert(numberingAbbrSettings).values(
    types.map((type, i) => ({
      id: newId(), organisationId, kind: 'contract' as const, ruleScope: RuleScope.ContractType, scopeKey: type.id,
      abbr: abbreviation(contractTypeCatalogue[i]!.english), dateFormat: NumberDateFormat.Year, updateTime: at,
    })),
  );

  const templateRuleId = newId();
  await tx.insert(numberingRules).values({
    id: templateRuleId, organisationId, kind: 'template', ruleScope: RuleScope.Default, scopeKey: '',
    digits: 3, isNatural: false, startNumber: 1, resetStartNumber: 1, resetCycle: ResetCycle.Never, recount: true, inUse: true, updateTime: at,
  });
  await tx.insert(numberingAbbrSettings).values({ id: newId(), organisationId, kind: 'template', ruleScope: RuleScope.Default, scopeKey: '', abbr: 'MB', dateFormat: null, updateTime: at });

  const userId = (username: string) => data.users.find((u) => u.username === username)!.id!;
  await tx.insert(numberEditors).values(['admin', 'carol'].map((username) => ({ organisationId, userId: userId(username) })));
  const eastSales = data.departments.find((d) => d.name === '华东销售组')!.id!;
  await tx.insert(userMainDepartments).values({ userId: userId('bob'), departmentId: eastSales });
  return { contractTypeIds: types.map((t) => t.id), templateRuleId };
}
