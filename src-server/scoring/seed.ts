import { PartyType } from '../../src-shared/domain/enums';
import type { ServerDb } from '../db/database';
import type { contracts, counterparties } from '../db/schema';
import { insertInBatches, seededId } from '../seed/batch';
import { Random } from '../seed/random';
import { scoreResultItems, scoreResults, scoringCriteria, scoringCriteriaGroups } from './schema';

// Demo scoring criteria (three groups, 100 points in all) and scores for a fifth of the
// approved or archived contracts with an outer party.

const catalogue = [
  { name: '履约能力', children: [['交付及时性', '按合同约定时间交付，每延期一次扣5分', 20], ['质量合格率', '验收一次通过率100%得满分，每降低5%扣4分', 20]] },
  { name: '服务质量', children: [['响应速度', '问题24小时内响应得满分', 15], ['沟通配合', '配合度高、沟通顺畅得满分', 15]] },
  { name: '商务条件', children: [['价格竞争力', '价格不高于市场均价得满分', 15], ['付款条件', '接受账期60天及以上得满分', 15]] },
] as const;

const comments = ['整体合作顺利，交付及时。', '质量稳定，响应略慢。', '价格有竞争力，建议继续合作。', '存在一次延期交付，已整改。', ''];

export async function seedScoring(
  tx: ServerDb,
  input: { organisationId: string; contracts: readonly (typeof contracts.$inferInsert)[]; parties: readonly (typeof counterparties.$inferInsert)[]; scorers: readonly string[] },
  seed: number,
  base: number,
): Promise<void> {
  const random = new Random(seed ^ 0x5c0_4e11);
  const groups = catalogue.map((group, g) => ({ id: seededId(random, base - 800 * 86_400_000), organisationId: input.organisationId, name: group.name, sortOrder: g }));
  const criteria = catalogue.flatMap((group, g) =>
    group.children.map(([name, criterion, maxScore], c) => ({ id: seededId(random, base - 800 * 86_400_000), groupId: groups[g]!.id, name, criterion, maxScore, sortOrder: c })),
  );
  const maxTotalScore = criteria.reduce((sum, c) => sum + c.maxScore, 0);
  const outer = new Set(input.parties.filter((p) => p.type === PartyType.Outer).map((p) => p.id));
  const results: (typeof scoreResults.$inferInsert)[] = [];
  const items: (typeof scoreResultItems.$inferInsert)[] = [];
  for (const contract of input.contracts) {
    if (!contract.counterpartyId || !outer.has(contract.counterpartyId) || (contract.status !== 4 && contract.status !== 5) || !random.chance(0.2)) continue;
    const at = (contract.updateTime as Date).getTime();
    const id = seededId(random, at);
    // Most parties do well; a few score poorly on everything.
    const quality = random.chance(0.1) ? 0.4 : 0.8;
    const scores = criteria.map((c) => ({ resultId: id, criterionId: c.id, actualScore: Math.min(c.maxScore, Math.round(c.maxScore * (quality + random.next() * 0.25))) }));
    items.push(...scores);
    results.push({
      id, contractId: contract.id, counterpartyId: contract.counterpartyId, comment: random.pick(comments),
      totalScore: scores.reduce((sum, s) => sum + s.actualScore, 0), maxTotalScore, scoredBy: random.pick(input.scorers),
      createTime: new Date(at), updateTime: new Date(at),
    });
  }
  await insertInBatches(tx, scoringCriteriaGroups, groups);
  await insertInBatches(tx, scoringCriteria, criteria);
  await insertInBatches(tx, scoreResults, results);
  await insertInBatches(tx, scoreResultItems, items);
}
