import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { TaskState } from '../../src-shared/domain/enums';
import { sheetColumnSchema, type SheetColumn } from '../../src-shared/domain/performance';
import { relatedCells } from '../../src-shared/rules/sheet-cells';
import { contracts } from '../db/schema';
import { performances, performanceTasks } from './schema';
import type { Executor } from './tasks';

// Sheet columns that follow a contract form field (spec 5 "relate field", config.relatedFieldId):
// their cells are stored as the contract's value, written when a row is saved and again whenever
// the contract's values change (an edit or an alteration), so that what the server stores, the
// feed sends and every device shows is the contract's current value.

const columnsSchema = z.array(sheetColumnSchema).catch([]);

/** The contract's form values, read only when some column follows one of them. */
export async function contractValues(db: Executor, contractId: string): Promise<Record<string, unknown>> {
  const [row] = await db.select({ formValues: contracts.formValues }).from(contracts).where(eq(contracts.id, contractId));
  return row?.formValues ?? {};
}

export const hasRelatedColumns = (columns: readonly SheetColumn[]) => columns.some((column) => column.config?.relatedFieldId !== undefined);

/**
 * After the contract's values changed: the related cells of its unfinished tasks take the new
 * values (a finished task keeps what it recorded). Rows whose cells are already so stay untouched.
 */
export async function followContract(db: Executor, contractId: string, formValues: Readonly<Record<string, unknown>>): Promise<void> {
  const rows = await db
    .select({ id: performanceTasks.id, values: performanceTasks.values, columns: performances.columns })
    .from(performanceTasks)
    .innerJoin(performances, eq(performances.id, performanceTasks.performanceId))
    .where(and(eq(performanceTasks.contractId, contractId), ne(performanceTasks.state, TaskState.Success)));
  for (const row of rows) {
    const related = relatedCells(columnsSchema.parse(row.columns), formValues);
    const values = { ...row.values, ...related };
    if (Object.keys(related).length === 0 || JSON.stringify(values) === JSON.stringify(row.values)) continue;
    await db
      .update(performanceTasks)
      .set({ values, version: sql`${performanceTasks.version} + 1`, updateTime: sql`now()` })
      .where(eq(performanceTasks.id, row.id));
  }
}
