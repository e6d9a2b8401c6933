import { and, eq, gt, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { LoginResponse, TokenPair } from '../../src-shared/api/endpoints';
import type { User } from '../../src-shared/domain/user';
import { AppFailure, defaultErrorMessages } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { authSessions, departments, users } from '../db/schema';
import { decoyPasswordHash, verifyPassword } from './password';
import { admitLoginAttempt, clearLoginAttempts } from './throttle';
import { newToken, tokenHash } from './tokens';

const accessTokenTtlMs = 60 * 60 * 1000;
const refreshTokenTtlMs = 30 * 24 * 60 * 60 * 1000;

/**
 * The signed-in user of a request. The organisation scopes every organisation-wide row; it is
 * read with the session so no feature looks it up again.
 */
export interface SessionUser extends User {
  organisationId: string;
  sessionId: string;
}

const userColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  role: users.role,
  departmentId: users.departmentId,
  departmentName: departments.name,
};

function issueTokens(now: Date) {
  const token = newToken();
  const refreshToken = newToken();
  const accessExpiresAt = new Date(now.getTime() + accessTokenTtlMs);
  const columns = {
    accessTokenHash: tokenHash(token),
    accessExpiresAt,
    refreshTokenHash: tokenHash(refreshToken),
    refreshExpiresAt: new Date(now.getTime() + refreshTokenTtlMs),
  };
  const pair: TokenPair = { token, refreshToken, expiresAt: accessExpiresAt.toISOString() };
  return { columns, pair };
}

/**
 * Signs a user in from the client at `address`. The attempt is counted (or refused, 429) before
 * the password is checked: see throttle.ts.
 */
export async function login(db: ServerDb, input: { username: string; password: string }, address: string, now: Date): Promise<LoginResponse> {
  // User names are case-insensitive; the throttle counts per normalised name, known or not.
  const username = input.username.toLowerCase();
  const attempt = { username, address };
  await admitLoginAttempt(db, attempt, now);
  const [found] = await db
    .select({ ...userColumns, passwordHash: users.passwordHash })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(eq(users.username, username));
  const passwordOk = await verifyPassword(input.password, found?.passwordHash ?? (await decoyPasswordHash()));
  if (!found || !passwordOk) throw new AppFailure('invalid_credentials');
  await clearLoginAttempts(db, attempt);
  const { columns, pair } = issueTokens(now);
  await db.insert(authSessions).values({ id: uuidv7(), userId: found.id, ...columns, createdAt: now, updatedAt: now });
  const { passwordHash: _hash, ...user } = found;
  return { ...pair, user };
}

/** Rotates both tokens; the old refresh token stops working in the same statement. */
export async function refresh(db: ServerDb, refreshToken: string, now: Date): Promise<TokenPair> {
  const { columns, pair } = issueTokens(now);
  const rotated = await db
    .update(authSessions)
    .set({ ...columns, updatedAt: now })
    .where(
      and(
        eq(authSessions.refreshTokenHash, tokenHash(refreshToken)),
        isNull(authSessions.revokedAt),
        gt(authSessions.refreshExpiresAt, now),
      ),
    )
    .returning({ id: authSessions.id });
  if (rotated.length === 0) throw new AppFailure('unauthorized');
  return pair;
}

export async function logout(db: ServerDb, sessionId: string, now: Date): Promise<void> {
  await db.update(authSessions).set({ revokedAt: now, updatedAt: now }).where(eq(authSessions.id, sessionId));
}

/** The user behind an `Authorization: Bearer …` header, or 401. */
export async function authenticate(db: ServerDb, authorization: string | undefined, now: Date): Promise<SessionUser> {
  const token = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new AppFailure('unauthorized', defaultErrorMessages.not_signed_in);
  const [found] = await db
    .select({ ...userColumns, organisationId: users.organisationId, sessionId: authSessions.id })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(
      and(
        eq(authSessions.accessTokenHash, tokenHash(token)),
        isNull(authSessions.revokedAt),
        gt(authSessions.accessExpiresAt, now),
      ),
    );
  if (!found) throw new AppFailure('unauthorized');
  return found;
}
