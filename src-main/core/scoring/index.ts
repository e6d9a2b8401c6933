import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { scoreDetailSchema, type ScoreDetail, type scoreSubmitSchema } from '../../../src-shared/api/scoring';
import { PartyType } from '../../../src-shared/domain/enums';
import { AppFailure } from '../../../src-shared/errors';
import type { ScoreDetailAnswer } from '../../../src-shared/ipc/scoring';
import { checkScores } from '../../../src-shared/rules/scoring';
import { mutations, rowKey, type MutationArgs } from '../../../src-shared/sync/mutations';
import { cachedReadStore } from '../data/cached-reads';
import type { ClientMutations, ReplicaTx } from '../data/replica-features';
import { cachedReads, catalogueCounterparties, contracts, contractsOverlay, outbox } from '../data/schema';
import type { CoreFeature, FeatureHost } from '../feature';
import { cachedRead, isServerAway, onlineCall } from '../session/online-call';

// Counterparty scoring (issue 30): the score detail is a kept read, answered "as of" its time
// while the server is away, and a score saved meanwhile (or for a contract the server does not
// know yet) is queued as 'contract.score', the user's own assessment applied once by the server.
// A queued score changes no synced row: the dialog reads it from the outbox on top of the kept
// detail until the server's detail holds it.

/** The kept score detail of a contract: cached_reads kind, keyed by the contract's id. */
export const scoreDetailKind = 'scoreDetail';

type QueuedScore = { seq: number; state: 'pending' | 'applied'; args: MutationArgs<'contract.score'> };

/** This contract's scores in the queue (waiting, or applied and not yet read back from the server), in the order they were made. */
function queuedScores(db: ReplicaTx, contractId: string): QueuedScore[] {
  const rows = db
    .select({ seq: outbox.seq, state: outbox.state, args: outbox.args })
    .from(outbox)
    .where(and(eq(outbox.name, 'contract.score'), inArray(outbox.state, ['pending', 'applied']), sql`json_extract(${outbox.args}, '$.id') = ${contractId}`))
    .orderBy(asc(outbox.seq))
    .all();
  return rows.flatMap((row) => {
    const parsed = mutations['contract.score'].args.safeParse(JSON.parse(row.args ?? 'null'));
    // A corrupted row is the outbox's to set aside.
    return parsed.success && (row.state === 'pending' || row.state === 'applied') ? [{ seq: row.seq, state: row.state, args: parsed.data }] : [];
  });
}

/**
 * The detail with the user's latest queued scores and comment on it. Its version is the one the
 * server will be at once the queued ones apply (each save moves it by one), so a score made on
 * top of them is based on that and not refused as stale.
 */
function withQueuedScores(detail: ScoreDetail, queued: readonly QueuedScore[]): { value: ScoreDetail; queued: boolean } {
  const last = queued.at(-1)?.args;
  if (!last) return { value: detail, queued: false };
  const scores = new Map(last.resultItems.flatMap((group) => group.children.map((child) => [child.id, child.actualScore] as const)));
  const resultItems = detail.resultItems.map((group) => ({
    ...group,
    children: group.children.map((c) => {
      const score = scores.get(c.id);
      return { ...c, actualScore: typeof score === 'number' || (typeof score === 'string' && /^\d{1,9}$/.test(score)) ? Number(score) : c.actualScore };
    }),
  }));
  const totalScore = resultItems.reduce((sum, g) => sum + g.children.reduce((s, c) => s + (c.actualScore ?? 0), 0), 0);
  return { value: { ...detail, comment: last.comment, totalScore, resultItems, version: (detail.version ?? 0) + queued.length }, queued: true };
}

/** The contract's kept score detail, read inside a check (its transaction). */
function keptDetail(db: ReplicaTx, userId: string, contractId: string): ScoreDetail | null {
  const row = db
    .select({ value: cachedReads.value })
    .from(cachedReads)
    .where(and(eq(cachedReads.userId, userId), eq(cachedReads.kind, scoreDetailKind), eq(cachedReads.key, contractId)))
    .get();
  return row ? parsedDetail(row.value) : null;
}

/** A kept detail as stored; a damaged or outdated one is none (as cachedReadStore reads it). */
function parsedDetail(text: string): ScoreDetail | null {
  try {
    const parsed = scoreDetailSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The detail of a contract the server does not know yet (drafted here): its outer party as this
 * device knows it, and the organisation's criteria as last read with any contract's score, as of
 * that read. Null when either is not known here.
 */
function unsyncedDetail(db: ReplicaTx, userId: string, contractId: string): { value: ScoreDetail; asOf: string } | null {
  const party = db
    .select({ id: catalogueCounterparties.id, name: catalogueCounterparties.name })
    .from(contractsOverlay)
    .innerJoin(catalogueCounterparties, and(eq(catalogueCounterparties.userId, userId), eq(catalogueCounterparties.id, contractsOverlay.counterpartyId)))
    .where(and(eq(contractsOverlay.id, contractId), eq(catalogueCounterparties.partyType, PartyType.Outer)))
    .get();
  if (!party) return null;
  const latest = db
    .select({ value: cachedReads.value, fetchedAt: cachedReads.fetchedAt })
    .from(cachedReads)
    .where(and(eq(cachedReads.userId, userId), eq(cachedReads.kind, scoreDetailKind)))
    .orderBy(desc(cachedReads.fetchedAt))
    .get();
  const criteria = latest && parsedDetail(latest.value);
  if (!latest || !criteria) return null;
  const resultItems = criteria.resultItems.map((group) => ({ ...group, children: group.children.map((c) => ({ ...c, actualScore: null })) }));
  const value: ScoreDetail = { contractId, counterpartyId: party.id, counterpartyName: party.name, comment: '', totalScore: null, maxTotalScore: criteria.maxTotalScore, updateTime: null, version: null, resultItems };
  return { value, asOf: latest.fetchedAt };
}

/** Whether the server has the contract (this device has pulled it), rather than only this device's draft of it. */
const onServer = (db: ReplicaTx, contractId: string) => db.select({ id: contracts.id }).from(contracts).where(eq(contracts.id, contractId)).get() !== undefined;

export const scoringMutations: ClientMutations<'contract.score'> = {
  'contract.score': {
    /** As the server: a contract the user sees (here: in the replica), each criterion scored by the rules against its full score as last read. */
    check(args, { db, owner }) {
      const found = db.select({ id: contractsOverlay.id }).from(contractsOverlay).where(eq(contractsOverlay.id, args.id)).get();
      if (!found) throw new AppFailure('not_found', 'contract not found');
      const detail = owner && keptDetail(db, owner.id, args.id);
      if (detail) checkScores(detail.resultItems.flatMap((group) => group.children), args);
    },
    apply: () => undefined,
    /** The sync panel shows a refused score by its total and explanation (the sync-merge catalog's score, scoreComment). */
    view: ({ id, comment, resultItems }) => ({
      row: rowKey('contract', id),
      changes: { score: resultItems.reduce((sum, g) => sum + g.children.reduce((s, c) => s + Number(c.actualScore ?? 0), 0), 0), scoreComment: comment },
    }),
  },
};

/** The queue rows of this contract's scores the server has applied: any detail it answers after now holds them. */
const appliedScores = (db: ReplicaTx, contractId: string) => queuedScores(db, contractId).flatMap((score) => (score.state === 'applied' ? [score.seq] : []));

/** Applied scores leave the queue once a detail from the server that holds them is kept (nothing else brings them back). */
function forget(db: ReplicaTx, seqs: readonly number[]) {
  if (seqs.length > 0) db.delete(outbox).where(inArray(outbox.seq, [...seqs])).run();
}

export function createScoringFeature(host: FeatureHost): CoreFeature<'scoring.detail' | 'scoring.save'> {
  async function detail(contractId: string): Promise<ScoreDetailAnswer> {
    const session = host.signedIn();
    const { db } = session.replica;
    const appliedBefore = appliedScores(db, contractId);
    if (!onServer(db, contractId)) {
      const local = unsyncedDetail(db, session.user.id, contractId);
      if (!local) throw new AppFailure('not_found', `contract ${contractId} has not reached the server yet`);
      return { ...local, offline: true, ...withQueuedScores(local.value, queuedScores(db, contractId)) };
    }
    const answer = await cachedRead(cachedReadStore(db, session.user.id), host.clock, {
      kind: scoreDetailKind,
      key: contractId,
      schema: scoreDetailSchema,
      fetch: () => onlineCall(session, 'scoreDetail', { params: { id: contractId } }),
    });
    if (!answer.offline) forget(db, appliedBefore);
    return { ...answer, ...withQueuedScores(answer.value, queuedScores(db, contractId)) };
  }

  async function save(contractId: string, body: z.output<typeof scoreSubmitSchema>): Promise<{ queued: boolean }> {
    const session = host.signedIn();
    const { db } = session.replica;
    // Saved on the server now unless it cannot be: away, a contract it does not know yet, or an
    // earlier score of this contract still waiting (the user's scores apply in the order made).
    const waiting = queuedScores(db, contractId).some((score) => score.state === 'pending');
    if (onServer(db, contractId) && !waiting) {
      const appliedBefore = appliedScores(db, contractId);
      try {
        const saved = await onlineCall(session, 'scoreSubmit', { params: { id: contractId }, body });
        cachedReadStore(db, session.user.id).write(scoreDetailKind, contractId, saved.detail, host.clock.now().toISOString());
        forget(db, appliedBefore);
        return { queued: false };
      } catch (cause) {
        if (!isServerAway(cause)) throw cause;
      }
    }
    host.sync().edit('contract.score', { id: contractId, ...body });
    return { queued: true };
  }

  return {
    handlers: {
      'scoring.detail': ({ contractId }) => detail(contractId),
      'scoring.save': ({ contractId, body }) => save(contractId, body),
    },
  };
}
