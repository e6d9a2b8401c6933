import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ScoreDetail, scoreSubmitSchema } from '../../src-shared/api/scoring';
import { PartyType } from '../../src-shared/domain/enums';
import { AppFailure } from '../../src-shared/errors';
import { checkScores, scoreSavedMessage } from '../../src-shared/rules/scoring';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { contracts, counterparties } from '../db/schema';
import { notFound, type OrgViewer } from '../http/feature-helpers';
import { checkIfMatch } from '../http/write-safety';
import { scoreResultItems, scoreResults, scoringCriteria, scoringCriteriaGroups } from './schema';


const noPartyMessage = 'please select an external party first';

/** The contract (visible to the viewer) and its outer counterparty, which is what gets scored. */
async function scoredContract(db: ServerDb, viewer: OrgViewer, contractId: string) {
  const [row] = await db
    .select({ id: contracts.id, counterpartyId: counterparties.id, counterpartyName: counterparties.name, partyType: counterparties.type })
    .from(contracts)
    .leftJoin(counterparties, eq(counterparties.id, contracts.counterpartyId))
    .where(and(eq(contracts.id, contractId), visibleTo(viewer)));
  if (!row) throw notFound('contract');
  if (!row.counterpartyId || !row.counterpartyName || row.partyType !== PartyType.Outer) throw new AppFailure('bad_request', noPartyMessage);
  return { id: row.id, counterpartyId: row.counterpartyId, counterpartyName: row.counterpartyName };
}

async function criteriaGroups(db: ServerDb, viewer: OrgViewer) {
  const rows = await db
    .select({ group: scoringCriteriaGroups, criterion: scoringCriteria })
    .from(scoringCriteriaGroups)
    .innerJoin(scoringCriteria, eq(scoringCriteria.groupId, scoringCriteriaGroups.id))
    .where(eq(scoringCriteriaGroups.organisationId, viewer.organisationId))
    .orderBy(asc(scoringCriteriaGroups.sortOrder), asc(scoringCriteriaGroups.id), asc(scoringCriteria.sortOrder), asc(scoringCriteria.id));
  const groups = new Map<string, { id: string; name: string; children: (typeof scoringCriteria.$inferSelect)[] }>();
  for (const { group, criterion } of rows) {
    const entry = groups.get(group.id) ?? { id: group.id, name: group.name, children: [] };
    entry.children.push(criterion);
    groups.set(group.id, entry);
  }
  return [...groups.values()];
}

type Groups = Awaited<ReturnType<typeof criteriaGroups>>;

const fullScore = (groups: Groups) => groups.reduce((sum, g) => sum + g.children.reduce((s, c) => s + c.maxScore, 0), 0);

export async function getScoreDetail(db: ServerDb, viewer: OrgViewer, contractId: string): Promise<ScoreDetail> {
  const contract = await scoredContract(db, viewer, contractId);
  const groups = await criteriaGroups(db, viewer);
  const [result] = await db.select().from(scoreResults).where(eq(scoreResults.contractId, contractId));
  const items = result ? await db.select().from(scoreResultItems).where(eq(scoreResultItems.resultId, result.id)) : [];
  const scores = new Map(items.map((i) => [i.criterionId, i.actualScore]));
  return {
    contractId,
    counterpartyId: contract.counterpartyId,
    counterpartyName: contract.counterpartyName,
    comment: result?.comment ?? '',
    totalScore: result?.totalScore ?? null,
    maxTotalScore: fullScore(groups),
    updateTime: result?.updateTime.toISOString() ?? null,
    version: result?.version ?? null,
    resultItems: groups.map((g) => ({
      id: g.id,
      name: g.name,
      children: g.children.map((c) => ({ id: c.id, name: c.name, criterion: c.criterion, maxScore: c.maxScore, actualScore: scores.get(c.id) ?? null })),
    })),
  };
}

/**
 * Saves a contract's score: the REST call's write, and a queued 'contract.score' when the push
 * applies it (inside its savepoint), so both check and write alike.
 */
export async function applyScore(
  db: ServerDb, viewer: OrgViewer, contractId: string, body: z.output<typeof scoreSubmitSchema>, newId: () => string, at: Date,
): Promise<void> {
  const contract = await scoredContract(db, viewer, contractId);
  const groups = await criteriaGroups(db, viewer);
  const scores = checkScores(groups.flatMap((g) => g.children), body);
  const totalScore = scores.reduce((sum, s) => sum + s.actualScore, 0);
  const maxTotalScore = fullScore(groups);
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(scoreResults).where(eq(scoreResults.contractId, contractId)).for('update');
    if (current) await checkIfMatch('the score', current.version, body.version, () => getScoreDetail(tx, viewer, contractId));
    const fields = { comment: body.comment, totalScore, maxTotalScore, counterpartyId: contract.counterpartyId, scoredBy: viewer.id, updateTime: at };
    const resultId = current?.id ?? newId();
    if (current) {
      await tx.update(scoreResults).set({ ...fields, version: current.version + 1 }).where(eq(scoreResults.id, resultId));
      await tx.delete(scoreResultItems).where(eq(scoreResultItems.resultId, resultId));
    } else {
      await tx.insert(scoreResults).values({ id: resultId, contractId, ...fields, createTime: at });
    }
    if (scores.length > 0) await tx.insert(scoreResultItems).values(scores.map((s) => ({ resultId, ...s })));
  });
}

export async function submitScore(
  db: ServerDb, viewer: OrgViewer, contractId: string, body: z.output<typeof scoreSubmitSchema>, newId: () => string, at: Date,
): Promise<{ message: string; detail: ScoreDetail }> {
  await applyScore(db, viewer, contractId, body, newId, at);
  return { message: scoreSavedMessage, detail: await getScoreDetail(db, viewer, contractId) };
}
