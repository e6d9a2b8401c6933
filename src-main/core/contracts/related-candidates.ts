import { desc, or, sql } from 'drizzle-orm';
import type { RelatedCandidates } from '../../../src-shared/ipc/drafting';
import type { OpenReplica } from '../data/replica';
import { contractsOverlay } from '../data/schema';

// A related-contracts field's candidates while the server is away (spec 7, list_for_related):
// the contracts this device holds (unconfirmed drafts included), matched on name or number,
// newest first, as the server's search answers online.

/** LIKE pattern that matches `text` literally anywhere (% and _ in user input are data). */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function searchRelatedCandidates({ db }: OpenReplica, q: string, limit: number): RelatedCandidates['list'] {
  const pattern = q === '' ? null : containsPattern(q);
  return db
    .select({ id: contractsOverlay.id, name: contractsOverlay.name, contractNumber: contractsOverlay.contractNumber })
    .from(contractsOverlay)
    .where(pattern === null ? undefined : or(sql`${contractsOverlay.name} like ${pattern} escape '\\'`, sql`${contractsOverlay.contractNumber} like ${pattern} escape '\\'`))
    .orderBy(desc(contractsOverlay.updateTime), desc(contractsOverlay.id))
    .limit(limit)
    .all();
}
