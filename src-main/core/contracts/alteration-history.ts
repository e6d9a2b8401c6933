import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { alterationSchema } from '../../../src-shared/api/contract-forms';
import { appErrorSchema } from '../../../src-shared/errors';
import type { LocalContractChange } from '../../../src-shared/ipc/drafting';
import { contractEditArgsSchema, rowKey } from '../../../src-shared/sync/mutations';
import type { OpenReplica } from '../data/replica';
import { alterationHistory, outbox, outboxTouches } from '../data/schema';

// A contract's history on this device: the server's alteration list as last fetched (per user,
// with its fetch time, for reading offline), and this device's own edits of the contract from
// the outbox until they settle and the pull replaces them.

const alterationListSchema = z.array(alterationSchema);

const parsed = <T>(schema: z.ZodType<T>, text: string | null): T | null => {
  if (text === null) return null;
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
};

export function alterationHistoryStore({ db }: OpenReplica, userId: string) {
  const of = (contractId: string) => and(eq(alterationHistory.userId, userId), eq(alterationHistory.contractId, contractId));
  return {
    /** The kept list and when it was fetched; null when never fetched (or unreadable). */
    kept(contractId: string): { alterations: z.infer<typeof alterationListSchema>; fetchedAt: string } | null {
      const row = db.select().from(alterationHistory).where(of(contractId)).get();
      const alterations = row ? parsed(alterationListSchema, row.alterations) : null;
      return row && alterations ? { alterations, fetchedAt: row.fetchedAt } : null;
    },

    keep(contractId: string, alterations: z.infer<typeof alterationListSchema>, fetchedAt: string): void {
      const values = { userId, contractId, fetchedAt, alterations: JSON.stringify(alterations) };
      db.insert(alterationHistory)
        .values(values)
        .onConflictDoUpdate({ target: [alterationHistory.userId, alterationHistory.contractId], set: { fetchedAt, alterations: values.alterations } })
        .run();
    },

    /** This device's edits of the contract still in the outbox, oldest first. */
    localChanges(contractId: string): LocalContractChange[] {
      return db
        .select({ id: outbox.id, name: outbox.name, state: outbox.state, createdAt: outbox.createdAt, args: outbox.args, error: outbox.error })
        .from(outboxTouches)
        .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
        .where(eq(outboxTouches.rowKey, rowKey('contract', contractId)))
        .orderBy(asc(outbox.seq))
        .all()
        .map((row) => {
          const args = parsed(contractEditArgsSchema, row.args);
          // An update's patch holds its form values apart: the history shows them beside the other columns.
          const { formValues: patchedValues, ...columns } = args?.patch ?? {};
          const patchedForm = typeof patchedValues === 'object' && patchedValues !== null ? (patchedValues as Record<string, unknown>) : {};
          return {
            id: row.id,
            name: row.name,
            state: row.state,
            createdAt: row.createdAt,
            reason: args?.reason ?? null,
            step: args?.action ? { action: args.action, comment: args.comment ?? null } : null,
            changes: args?.patch ? { ...columns, ...patchedForm } : (args?.formValues ?? {}),
            error: parsed(appErrorSchema, row.error),
          };
        });
    },
  };
}
