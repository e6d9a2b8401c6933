import { z } from 'zod';
import { filterConditionSchema } from '../domain/ledger';

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
  /** An edit of it waits to be sent or confirmed. */
  pending: z.boolean(),
});
export type SceneView = z.infer<typeof sceneViewSchema>;
