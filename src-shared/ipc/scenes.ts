import { z } from 'zod';
import { filterConditionSchema, ledgerSearchSchema, sortFieldSchema } from '../domain/ledger';

// The ledger's scenes as the core answers them from the replica (issue 14).

export const sceneViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  isSystem: z.boolean(),
  performanceId: z.string().nullable(),
  filterIDs: z.array(z.string()),
  titleIDs: z.array(z.string()),
  filter: z.array(filterConditionSchema),
  /** The kept sort, one of its columns; null: newest update first. */
  sortField: sortFieldSchema.nullable(),
  /** An edit of it waits to be sent or confirmed. */
  pending: z.boolean(),
});
export type SceneView = z.infer<typeof sceneViewSchema>;

/** The Excel export of a scene as shown (issue 14): its search without the page; the renderer names the export. */
export const sceneExportRequestSchema = z
  .object({
    exportId: z.string().uuid(),
    search: ledgerSearchSchema.omit({ pageNum: true, pageSize: true }),
  })
  .strict();
export const sceneExportResponseSchema = z.object({ rows: z.number().int().nonnegative(), size: z.number().int().nonnegative() });
/** A piece of the finished file (base64), from `offset`; the file is removed once its last piece is read. */
export const sceneExportReadRequestSchema = z.object({ exportId: z.string().uuid(), offset: z.number().int().nonnegative() }).strict();
export const sceneExportReadResponseSchema = z.object({ data: z.string(), size: z.number().int().nonnegative() });
/** Rows written so far (an event: a large export shows its progress). */
export const sceneExportProgressSchema = z.object({ exportId: z.string(), written: z.number().int().nonnegative(), total: z.number().int().nonnegative() });
