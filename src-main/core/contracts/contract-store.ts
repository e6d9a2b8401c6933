import { isDeepStrictEqual } from 'node:util';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { AppFailure, reason } from '../../../src-shared/errors';
import { rowKey, type RowKey } from '../../../src-shared/sync/mutations';
import { byFieldGroup, formFieldGroup } from '../../../src-shared/sync/field-versions';
import type { OpenReplica } from '../data/replica';
import { deferIndexes } from '../data/deferred-indexes';
import { preparedUpsert } from '../data/prepared-upsert';
import { preparedPerDatabase, type OverlayEntity, type PullWriter, type ReplicaTx } from '../data/replica-features';
import { contracts, contractsLocal, outbox, outboxTouches, resyncUnseen } from '../data/schema';
import { repeatedNumbersUpkeep } from './repeated-numbers';
import { pulledRow, toReplicaContract, toRow, type ContractRow, type ReplicaContract } from './contract-rows';
import { catalogueNames, keptTemplate } from './drafting-store';

// The contracts of the replica: base rows written only by pulls, and the optimistic rows
// (`contracts_local`) the outbox rebuilds from them and the user's unconfirmed edits.

/** A contract the replica does not hold (not synced yet, or not the user's to see). */
export const contractNotFound = (id: string) => new AppFailure('not_found', `contract ${id} is not in this device's data: it is not synced yet, or not yours to see`, undefined, reason('contractNotOnDevice'));

/** The synced contract, or null when the replica has none. */
const contractQueries = preparedPerDatabase((db) => ({
  base: db.select().from(contracts).where(eq(contracts.id, sql.placeholder('id'))).prepare(),
  local: db.select().from(contractsLocal).where(eq(contractsLocal.id, sql.placeholder('id'))).prepare(),
  alterationQueued: db
    .select({ seq: outbox.seq })
    .from(outboxTouches)
    .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
    .where(and(eq(outboxTouches.rowKey, sql.placeholder('key')), eq(outbox.name, 'contract.alter'), eq(outbox.state, 'pending')))
    .prepare(),
}));

export function baseContract(db: ReplicaTx, id: string): ReplicaContract | null {
  const row = contractQueries(db).base.get({ id });
  return row ? toReplicaContract(row) : null;
}

/**
 * Whether an alteration of the contract is queued on this device and not sent yet: until the
 * server has it, the contract is being changed here (its tasks are not finished meanwhile).
 */
export function alterationQueued(db: ReplicaTx, id: string): boolean {
  return contractQueries(db).alterationQueued.get({ key: rowKey('contract', id) }) !== undefined;
}

/** The contract as this device shows it: with the user's unconfirmed edits, else the synced one; null when the replica has none. */
export function currentContract(db: ReplicaTx, id: string): ReplicaContract | null {
  const local = contractQueries(db).local.get({ id });
  return local ? toReplicaContract(local) : baseContract(db, id);
}

/**
 * Whether a contract as this device shows it (its optimistic row, else its synced one) names the
 * file in its form values: a queued file an edit removed again is named by none (issue 30).
 */
export function contractFormsName(db: ReplicaTx, fileId: string): boolean {
  const pattern = `%${fileId}%`;
  const local = db.select({ id: contractsLocal.id }).from(contractsLocal).where(sql`${contractsLocal.formValues} like ${pattern}`).limit(1).get();
  if (local) return true;
  const shadowed = sql`exists (select 1 from ${contractsLocal} where ${contractsLocal.id} = ${contracts.id})`;
  return db.select({ id: contracts.id }).from(contracts).where(and(sql`${contracts.formValues} like ${pattern}`, sql`not ${shadowed}`)).limit(1).get() !== undefined;
}

export const contractOverlay: OverlayEntity = {
  base: baseContract,
  setLocal(db, id, row) {
    const next = row ? toRow(row as ReplicaContract) : null;
    const kept = db.select().from(contractsLocal).where(eq(contractsLocal.id, id)).get();
    // A settled edit leaves its row as shown: rewriting it would redo the search index's work for nothing.
    if (kept && next && Object.entries(kept).every(([column, value]) => isDeepStrictEqual(value, next[column as keyof ContractRow]))) return;
    if (kept) db.delete(contractsLocal).where(eq(contractsLocal.id, id)).run();
    if (next) db.insert(contractsLocal).values(next).run();
  },
  name(db, id) {
    const row = db.select({ name: contractsLocal.name }).from(contractsLocal).where(eq(contractsLocal.id, id)).get() ?? db.select({ name: contracts.name }).from(contracts).where(eq(contracts.id, id)).get();
    return row?.name ?? null;
  },
  fields: (row) => byFieldGroup(row as Record<string, unknown>),
  /** Its form fields by the names its template gives them, when this device holds the template. */
  fieldNames(db, id, userId) {
    const templateId = currentContract(db, id)?.templateId;
    const fields = templateId ? (keptTemplate(db, userId, templateId)?.fields ?? []) : [];
    return Object.fromEntries(fields.map((field) => [formFieldGroup(field.id), field.name]));
  },
  // A type chosen in a form field is named as the type column is: an id of a known type is one.
  valueName: (db, userId, field, value) => (field === 'contractTypeId' || field.startsWith(formFieldGroup('')) ? catalogueNames(db, userId).contractTypeName(value) : null),
};

/** Ids per `in (…)` list of a resync's bookkeeping, well under SQLite's bound-variable limit. */
const upsertChunk = 500;

/**
 * Pulled contracts. During a resync, `resync_unseen` holds the contracts the full pull has not
 * brought yet; those left at its end are gone. A pull from nothing into an empty table writes
 * without the secondary indexes, which the pull's end builds (replica-sync.ts): kept row by row,
 * among the tasks each page also writes, they cost 1.5 s of a 50,000-contract first sync (the
 * ledger's queries read the table without them meanwhile; it holds only what has arrived).
 */
export function contractPullWriter({ sqlite }: OpenReplica): PullWriter<'contract'> {
  const upsert = preparedUpsert(sqlite, contracts);
  const empty = sqlite.prepare<[], number>('select not exists (select 1 from contracts)').pluck();
  const repeatedNumbers = repeatedNumbersUpkeep(sqlite);
  return {
    pullFromStart() {
      if (empty.get() !== 1) return;
      deferIndexes(sqlite, 'contracts');
      repeatedNumbers.defer();
    },
    imageTakenIn: () => repeatedNumbers.discard(),
    page(db) {
      const seen: string[] = [];
      return {
        write(change) {
          if (change.op === 'upsert') {
            seen.push(change.row.id);
            upsert(pulledRow(change.row));
          } else {
            seen.push(change.id);
            db.delete(contracts).where(eq(contracts.id, change.id)).run();
          }
          return [];
        },
        end() {
          if (db.select({ id: resyncUnseen.id }).from(resyncUnseen).limit(1).get()) {
            for (let i = 0; i < seen.length; i += upsertChunk) db.delete(resyncUnseen).where(inArray(resyncUnseen.id, seen.slice(i, i + upsertChunk))).run();
          }
        },
      };
    },
    startResync(db) {
      db.delete(resyncUnseen).run();
      db.insert(resyncUnseen).select(db.select({ id: contracts.id }).from(contracts)).run();
      return [];
    },
    finishPull(db): RowKey[] {
      const gone = db.select({ id: resyncUnseen.id }).from(resyncUnseen).all().map((row) => row.id);
      for (let i = 0; i < gone.length; i += upsertChunk) db.delete(contracts).where(inArray(contracts.id, gone.slice(i, i + upsertChunk))).run();
      if (gone.length > 0) db.delete(resyncUnseen).run();
      // After the removals: derived from the rows as they are left.
      repeatedNumbers.finish();
      return gone.map((id) => rowKey('contract', id));
    },
  };
}
