import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { directoryDepartmentSchema, directoryUserSchema } from '../../../src-shared/api/directory';
import type { ReplicaDb } from '../data/replica';
import { replicaMeta } from '../data/schema';

// The kept directory: one JSON entry of the replica's key/value facts (a replica belongs to one
// user, so it never answers for another). Read back through its schema: a damaged entry is no directory.

const directoryKey = 'directory';

export const keptDirectorySchema = z.object({
  users: z.array(directoryUserSchema),
  departments: z.array(directoryDepartmentSchema),
  fetchedAt: z.string(),
});
export type KeptDirectory = z.infer<typeof keptDirectorySchema>;

export function directoryStore(db: ReplicaDb) {
  return {
    read(): KeptDirectory | null {
      const row = db.select({ value: replicaMeta.value }).from(replicaMeta).where(eq(replicaMeta.key, directoryKey)).get();
      if (!row) return null;
      try {
        const parsed = keptDirectorySchema.safeParse(JSON.parse(row.value));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    write(directory: KeptDirectory): void {
      const value = JSON.stringify(directory);
      db.insert(replicaMeta).values({ key: directoryKey, value }).onConflictDoUpdate({ target: replicaMeta.key, set: { value } }).run();
    },
  };
}
