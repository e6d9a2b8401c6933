import { z } from 'zod';
import { filterConditionSchema, ledgerSearchSchema, sortFieldSchema } from '../domain/ledger';
import { exportLanguageSchema } from './exports';

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
    language: exportLanguageSchema,
  })
  .strict();
