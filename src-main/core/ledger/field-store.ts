import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ledgerFieldSchema, type LedgerField } from '../../../src-shared/domain/ledger';
import { ledgerFieldCatalogue } from '../../../src-shared/domain/ledger-fields';
import type { ReplicaTx } from '../data/replica-features';
import { replicaMeta } from '../data/schema';

// The ledger's field definitions as the server last sent them (the system catalogue plus the
// contract form fields registered in ledger_fields), kept in the replica's key/value facts so
// that scenes are checked and searched offline by the server's definitions. Before the first
// fetch the replica knows the system catalogue only.

const fieldsKey = 'ledger_fields';
const keptSchema = z.array(ledgerFieldSchema);

const catalogueDefinitions: readonly LedgerField[] = ledgerFieldCatalogue.map(({ kind: _kind, hasUnit: _hasUnit, ...field }) => field);

export function readLedgerFields(db: ReplicaTx): readonly LedgerField[] {
  const row = db.select({ value: replicaMeta.value }).from(replicaMeta).where(eq(replicaMeta.key, fieldsKey)).get();
  if (!row) return catalogueDefinitions;
  try {
    const parsed = keptSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : catalogueDefinitions;
  } catch {
    return catalogueDefinitions;
  }
}

export function keepLedgerFields(db: ReplicaTx, fields: readonly LedgerField[]): void {
  const value = JSON.stringify(fields);
  db.insert(replicaMeta).values({ key: fieldsKey, value }).onConflictDoUpdate({ target: replicaMeta.key, set: { value } }).run();
}
