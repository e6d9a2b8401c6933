import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { DeviceDescription } from '../../src-shared/api/devices';
import type { LoginResponse, SessionGrant } from '../../src-shared/api/endpoints';
import type { User } from '../../src-shared/domain/user';
import { AppFailure, defaultErrorMessages } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { authSessions, departments, devices, users } from '../db/schema';
import { deviceAtSignIn, deviceRevokedFailure, effectiveOfflineLockDays, noteDeviceContact } from '../devices/service';
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
  /** The server's id of the session's device; null for clients that named none. */
  deviceId: string | null;
}

const userColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  role: users.role,
  departmentId: users.departmentId,
  departmentName: departments.name,
  organisationId: users.organisationId,
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
  const pair = { token, refreshToken, expiresAt: accessExpiresAt.toISOString() };
  return { columns, pair };
}

/**
 * Signs a user in from the client at `address`. The attempt is counted (or refused, 429) before
 * the password is checked: see throttle.ts.
 */
export async function login(db: ServerDb, input: { username: string; password: string; device?: DeviceDescription }, address: string, now: Date): Promise<LoginResponse> {
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
  // Only someone who knows the password learns that the device is revoked.
  const deviceId = input.device ? await deviceAtSignIn(db, found.id, input.device, now) : null;
  const { columns, pair } = issueTokens(now);
  await db.insert(authSessions).values({ id: uuidv7(), userId: found.id, deviceId, ...columns, createdAt: now, updatedAt: now });
  const { passwordHash: _hash, ...user } = found;
  return { ...pair, offlineLockDays: await effectiveOfflineLockDays(db, found.id, deviceId), user };
}

/** Rotates both tokens; the old refresh token stops working in the same statement. */
export async function refresh(db: ServerDb, refreshToken: string, now: Date): Promise<SessionGrant> {
  const hash = tokenHash(refreshToken);
  const [revoked] = await db
    .select({ revokedReason: devices.revokedReason })
    .from(authSessions)
    .innerJoin(devices, eq(devices.id, authSessions.deviceId))
    .where(and(eq(authSessions.refreshTokenHash, hash), isNotNull(devices.revokedAt)));
  if (revoked) throw deviceRevokedFailure(revoked.revokedReason);
  const { columns, pair } = issueTokens(now);
  const rotated = await db
    .update(authSessions)
    .set({ ...columns, updatedAt: now })
    .where(
      and(
        eq(authSessions.refreshTokenHash, hash),
        isNull(authSessions.revokedAt),
        gt(authSessions.refreshExpiresAt, now),
      ),
    )
    .returning({ userId: authSessions.userId, deviceId: authSessions.deviceId });
  const [session] = rotated;
  if (!session) throw new AppFailure('unauthorized');
  return { ...pair, offlineLockDays: await effectiveOfflineLockDays(db, session.userId, session.deviceId) };
}

export async function logout(db: ServerDb, sessionId: string, now: Date): Promise<void> {
  await db.update(authSessions).set({ revokedAt: now, updatedAt: now }).where(eq(authSessions.id, sessionId));
}

/**
 * The user behind an `Authorization: Bearer …` header, or 401; 403 device_revoked for a token of a
 * revoked device, even a lapsed one, so that the device learns why at its next contact.
 */
export async function authenticate(db: ServerDb, authorization: string | undefined, now: Date): Promise<SessionUser> {
  const token = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new AppFailure('unauthorized', defaultErrorMessages.not_signed_in);
  const [found] = await db
    .select({
      ...userColumns,
      sessionId: authSessions.id,
      deviceId: authSessions.deviceId,
      sessionRevokedAt: authSessions.revokedAt,
      accessExpiresAt: authSessions.accessExpiresAt,
      deviceRevokedAt: devices.revokedAt,
      deviceRevokedReason: devices.revokedReason,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .leftJoin(devices, eq(devices.id, authSessions.deviceId))
    .where(eq(authSessions.accessTokenHash, tokenHash(token)));
  if (!found) throw new AppFailure('unauthorized');
  const { sessionRevokedAt, accessExpiresAt, deviceRevokedAt, deviceRevokedReason, ...user } = found;
  if (deviceRevokedAt) throw deviceRevokedFailure(deviceRevokedReason);
  if (sessionRevokedAt || accessExpiresAt <= now) throw new AppFailure('unauthorized');
  if (user.deviceId) await noteDeviceContact(db, user.deviceId, now);
  return user;
}
