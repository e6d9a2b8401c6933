import { asc, eq } from 'drizzle-orm';
import type { directoryEndpoints } from '../../src-shared/api/directory';
import type { ServerDb } from '../db/database';
import { departments, users } from '../db/schema';
import type { FeatureHandlers } from '../http/routes';

// The directory of the signed-in user's organisation: names and departments only (no user
// names for sign-in, roles or credentials), ordered by name so pickers list them as they show.

export function directoryHandlers(db: ServerDb, _now: () => Date): FeatureHandlers<typeof directoryEndpoints> {
  return {
    userDirectory: async ({ user }) => {
      const rows = await db
        .select({ id: users.id, name: users.displayName, departmentId: departments.id, departmentName: departments.name })
        .from(users)
        .leftJoin(departments, eq(departments.id, users.departmentId))
        .where(eq(users.organisationId, user.organisationId))
        .orderBy(asc(users.displayName), asc(users.id));
      return {
        list: rows.map(({ departmentId, departmentName, ...row }) => ({
          ...row,
          department: departmentId === null || departmentName === null ? null : { id: departmentId, name: departmentName },
        })),
      };
    },
    departmentDirectory: async ({ user }) => ({
      list: await db
        .select({ id: departments.id, name: departments.name, parent: departments.parentId })
        .from(departments)
        .where(eq(departments.organisationId, user.organisationId))
        .orderBy(asc(departments.name), asc(departments.id)),
    }),
  };
}
