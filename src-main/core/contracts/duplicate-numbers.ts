import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/sqlite-core';
import type { z } from 'zod';
import type { duplicateCheckRequestSchema } from '../../../src-shared/ipc/drafting';
import { groupByNumber, type DuplicateResult } from '../../../src-shared/form/field-config';
import type { OpenReplica } from '../data/replica';
import { contracts, contractsLocal, contractsOverlay, repeatedContractNumbers } from '../data/schema';
import { repeatedNumbersUpkeep } from './repeated-numbers';

// The duplicate check while the server is away (spec 5, 7): the contracts this device holds, as
// shown here (unconfirmed drafts and edits included), grouped by number as the server answers.
// The replica holds what the user may see, as the server lists "as far as the viewer sees them".

export function duplicateNumbers({ db, sqlite }: OpenReplica, query: z.output<typeof duplicateCheckRequestSchema>): { list: DuplicateResult[] } {
  const single = query.checkAll !== 'true' && query.contractNumber ? query.contractNumber : undefined;
  // A number held twice as shown is held twice by the synced rows, or by a row edited here: those
  // few are counted as shown, rather than grouping every contract of the view (65 ms at 50,000).
  // The synced rows' repeats are kept by triggers, except while a first sync fills the replica.
  const editedHere = db.select({ number: contractsLocal.contractNumber }).from(contractsLocal).where(isNotNull(contractsLocal.contractNumber));
  const candidates = repeatedNumbersUpkeep(sqlite).deferred()
    ? union(db.select({ number: contracts.contractNumber }).from(contracts).where(isNotNull(contracts.contractNumber)).groupBy(contracts.contractNumber).having(sql`count(*) > 1`), editedHere)
    : union(editedHere, db.select({ number: repeatedContractNumbers.contractNumber }).from(repeatedContractNumbers));
  const repeated = db
    .select({ number: contractsOverlay.contractNumber })
    .from(contractsOverlay)
    .where(inArray(contractsOverlay.contractNumber, candidates))
    .groupBy(contractsOverlay.contractNumber)
    .having(sql`count(*) > 1`);
  const rows = db
    .select({ id: contractsOverlay.id, name: contractsOverlay.name, number: contractsOverlay.contractNumber })
    .from(contractsOverlay)
    .where(
      and(
        single !== undefined ? eq(contractsOverlay.contractNumber, single) : inArray(contractsOverlay.contractNumber, repeated),
        query.excludeId ? ne(contractsOverlay.id, query.excludeId) : undefined,
      ),
    )
    .orderBy(asc(contractsOverlay.contractNumber), asc(contractsOverlay.id))
    .all();
  return groupByNumber(rows);
}
