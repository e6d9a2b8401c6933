import { eq } from 'drizzle-orm';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { users } from '../db/schema';

/** The signed-in user's organisation (the session carries only id, role and department). */
export async function organisationOf(db: ServerDb, userId: string): Promise<string> {
  const [row] = await db.select({ organisationId: users.organisationId }).from(users).where(eq(users.id, userId));
  if (!row) throw new AppFailure('unauthorized');
  return row.organisationId;
}
