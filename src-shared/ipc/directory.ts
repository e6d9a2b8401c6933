import { z } from 'zod';
import { directoryDepartmentSchema, directoryUserSchema } from '../api/directory';

// The directory the core keeps for the people and department fields: fetched from the server
// when it can be reached, kept in the replica, and answered from there offline "as of" its time.

export const directorySchema = z.object({
  users: z.array(directoryUserSchema),
  departments: z.array(directoryDepartmentSchema),
  /** When the server gave this directory (ISO instant). */
  fetchedAt: z.string(),
  /** Answered from the replica because the server could not be reached: it is as of fetchedAt. */
  offline: z.boolean(),
});
export type Directory = z.infer<typeof directorySchema>;
