import { and, count, eq, gt, isNull, lte, min } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { LoginResponse, TokenPair } from '../../src-shared/api/endpoints';
import type { User } from '../../src-shared/domain/user';
import { AppFailure, defaultErrorMessages } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { authSessions, departments, loginFailures, users } from '../db/schema';
import { RateLimited } from '../http/errors';
import { decoyPasswordHash, verifyPassword } from './password';
import { newToken, tokenHash } from './tokens';

const accessTokenTtlMs = 60 * 60 * 1000;
const refreshTokenTtlMs = 30 * 24 * 60 * 60 * 1000;
/** More than `maxFailures` failed sign-ins for one user name within the window → 429. */
export const loginRateLimit = { maxFailures: 10, windowMs: 15 * 60 * 1000 } as const;

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

/** Refuses the attempt when the user name already has too many recent failures. */
async function checkRateLimit(db: ServerDb, username: string, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - loginRateLimit.windowMs);
  const [recent] = await db
    .select({ failures: count(), oldest: min(loginFailures.failedAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.username, username), gt(loginFailures.failedAt, windowStart)));
  if (!recent || recent.failures < loginRateLimit.maxFailures || !recent.oldest) return;
  const retryAtMs = recent.oldest.getTime() + loginRateLimit.windowMs;
  throw new RateLimited(Math.max(1, Math.ceil((retryAtMs - now.getTime()) / 1000)));
}

async function recordFailure(db: ServerDb, username: string, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - loginRateLimit.windowMs);
  // Old failures no longer count; dropping them here keeps the table small without a job.
  await db.delete(loginFailures).where(and(eq(loginFailures.username, username), lte(loginFailures.failedAt, windowStart)));
  await db.insert(loginFailures).values({ username, failedAt: now });
}

export async function login(db: ServerDb, input: { username: string; password: string }, now: Date): Promise<LoginResponse> {
  // User names are case-insensitive; the rate limit counts per normalised name, known or not.
  const username = input.username.toLowerCase();
  await checkRateLimit(db, username, now);
  const [found] = await db
    .select({ ...userColumns, passwordHash: users.passwordHash })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(eq(users.username, username));
  const passwordOk = await verifyPassword(input.password, found?.passwordHash ?? (await decoyPasswordHash()));
  if (!found || !passwordOk) {
    await recordFailure(db, username, now);
    throw new AppFailure('invalid_credentials');
  }
  await db.delete(loginFailures).where(eq(loginFailures.username, username));
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
