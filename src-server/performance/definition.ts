import { eq } from 'drizzle-orm';
import { performanceCreateSchema, type Performance, type SheetColumn } from '../../src-shared/domain/performance';
import { defaultPerformanceForm } from '../../src-shared/rules/performance';
import { performances } from './schema';
import type { Executor } from './tasks';

// A stored performance definition as the app reads it: the plans' sheets, the task edits and the
// feed take its columns from here, so each checks cells against the same sheet.

export function toPerformance(row: typeof performances.$inferSelect): Performance {
  const stored = performanceCreateSchema.safeParse({ name: row.name, type: row.type, fields: row.fields, columns: row.columns });
  const form = stored.success ? stored.data : { ...defaultPerformanceForm('custom'), type: 'custom' as const };
  return {
    id: row.id,
    name: row.name,
    type: form.type,
    fields: form.fields,
    columns: form.columns,
    sortOrder: row.sortOrder,
    updateTime: row.updateTime.toISOString(),
    version: row.version,
  };
}

/** The sheet columns of a task's performance; none for a quick task. */
export async function sheetColumnsOf(db: Executor, performanceId: string | null): Promise<SheetColumn[]> {
  if (performanceId === null) return [];
  const [row] = await db.select().from(performances).where(eq(performances.id, performanceId));
  return row ? toPerformance(row).columns : [];
}
