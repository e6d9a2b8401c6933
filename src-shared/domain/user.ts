import { z } from 'zod';
import { idSchema } from './contract';

export const userRoles = ['admin', 'staff'] as const;
export type UserRole = (typeof userRoles)[number];

export const userSchema = z.object({
  id: idSchema,
  username: z.string(),
  displayName: z.string(),
  role: z.enum(userRoles),
  departmentId: idSchema.nullable(),
  departmentName: z.string().nullable(),
  /** Builds the party field keys (spec 6); absent in a session kept by a build that did not keep it, until the next sign-in. */
  organisationId: idSchema.optional(),
});
export type User = z.infer<typeof userSchema>;
