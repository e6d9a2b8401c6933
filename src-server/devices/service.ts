import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Device, DeviceDescription } from '../../src-shared/api/devices';
import { AppFailure, reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { authSessions, devices, organisations, users } from '../db/schema';
import type { OrgViewer } from '../http/feature-helpers';

// Devices (issue 32): a row per user and installation, made or refreshed at sign-in; its sessions
// end together when its user signs it out, and a revoked one is refused everywhere, for good.

/** Who asks, with the device of their session (the signed-in user of src-server/auth/service.ts). */
type DeviceViewer = OrgViewer & { deviceId: string | null };

/** Last contact is written at most this often, so a busy device does not write on every call. */
const lastSeenGrainMs = 60_000;

/** The refusal a revoked device gets on every call and at sign-in, with the administrator's reason. */
export function deviceRevokedFailure(revokedReason: string | null): AppFailure {
  return new AppFailure('device_revoked', undefined, undefined, reason('deviceRevoked', { reason: revokedReason ?? '' }));
}

/** The user's device for this installation, made on its first sign-in; refused when revoked. */
export async function deviceAtSignIn(db: ServerDb, userId: string, device: DeviceDescription, now: Date): Promise<string> {
  const described = { name: device.name, platform: device.platform, appVersion: device.appVersion, lastSeenAt: now };
  const [row] = await db
    .insert(devices)
    .values({ id: uuidv7(), userId, deviceId: device.id, ...described, firstSeenAt: now })
    .onConflictDoUpdate({ target: [devices.userId, devices.deviceId], set: described, setWhere: isNull(devices.revokedAt) })
    .returning({ id: devices.id });
  if (row) return row.id;
  // The update was skipped: the device is revoked.
  const [revoked] = await db
    .select({ revokedReason: devices.revokedReason })
    .from(devices)
    .where(and(eq(devices.userId, userId), eq(devices.deviceId, device.id)));
  throw deviceRevokedFailure(revoked?.revokedReason ?? null);
}

/** Notes a contact of the device, at most once a minute. */
export async function noteDeviceContact(db: ServerDb, deviceId: string, now: Date): Promise<void> {
  await db
    .update(devices)
    .set({ lastSeenAt: now })
    .where(and(eq(devices.id, deviceId), lt(devices.lastSeenAt, new Date(now.getTime() - lastSeenGrainMs))));
}

function deviceRows(db: ServerDb, now: Date) {
  const open = db
    .select({ deviceId: authSessions.deviceId, open: count().as('open') })
    .from(authSessions)
    .where(and(isNull(authSessions.revokedAt), gt(authSessions.refreshExpiresAt, now)))
    .groupBy(authSessions.deviceId)
    .as('open_sessions');
  return db
    .select({
      id: devices.id,
      deviceId: devices.deviceId,
      userId: devices.userId,
      username: users.username,
      userDisplayName: users.displayName,
      name: devices.name,
      platform: devices.platform,
      appVersion: devices.appVersion,
      firstSeenAt: devices.firstSeenAt,
      lastSeenAt: devices.lastSeenAt,
      openSessions: sql<number>`coalesce(${open.open}, 0)::int`,
      revokedAt: devices.revokedAt,
      revokedReason: devices.revokedReason,
      offlineLockDays: devices.offlineLockDays,
    })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .leftJoin(open, eq(open.deviceId, devices.id))
    .$dynamic();
}

type DeviceRow = Awaited<ReturnType<ReturnType<typeof deviceRows>['execute']>>[number];

const asDevice = (viewer: Pick<DeviceViewer, 'deviceId'>) => (row: DeviceRow): Device => ({
  ...row,
  current: row.id === viewer.deviceId,
  openSessions: Number(row.openSessions),
  firstSeenAt: row.firstSeenAt.toISOString(),
  lastSeenAt: row.lastSeenAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

export async function myDevices(db: ServerDb, viewer: DeviceViewer, now: Date): Promise<Device[]> {
  const rows = await deviceRows(db, now).where(eq(devices.userId, viewer.id)).orderBy(desc(devices.lastSeenAt));
  return rows.map(asDevice(viewer));
}

async function oneDevice(db: ServerDb, viewer: DeviceViewer, id: string, now: Date, scope: ReturnType<typeof eq>): Promise<Device> {
  const [row] = await deviceRows(db, now).where(and(eq(devices.id, id), scope));
  if (!row) throw new AppFailure('not_found', `device ${id} not found`);
  return asDevice(viewer)(row);
}

/** Ends every session of one of the viewer's own devices; it may sign in again. */
export async function signDeviceOut(db: ServerDb, viewer: DeviceViewer, id: string, now: Date): Promise<Device> {
  const [own] = await db.select({ userId: devices.userId }).from(devices).where(eq(devices.id, id));
  if (!own) throw new AppFailure('not_found', `device ${id} not found`);
  if (own.userId !== viewer.id) throw new AppFailure('forbidden', 'this device is not one of yours', undefined, reason('deviceNotYours'));
  await db
    .update(authSessions)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(authSessions.deviceId, id), isNull(authSessions.revokedAt)));
  return oneDevice(db, viewer, id, now, eq(devices.userId, viewer.id));
}

function requireAdmin(viewer: DeviceViewer): void {
  if (viewer.role !== 'admin') throw new AppFailure('forbidden', 'only administrators may manage devices', undefined, reason('adminsOnly'));
}

/** Every device of the administrator's organisation, or one user's. */
export async function adminDevices(db: ServerDb, viewer: DeviceViewer, query: { userId?: string }, now: Date): Promise<Device[]> {
  requireAdmin(viewer);
  const inOrganisation = eq(users.organisationId, viewer.organisationId);
  const rows = await deviceRows(db, now)
    .where(query.userId === undefined ? inOrganisation : and(inOrganisation, eq(devices.userId, query.userId)))
    .orderBy(users.username, desc(devices.lastSeenAt));
  return rows.map(asDevice(viewer));
}

/** Revokes a device of the organisation: its sessions end and it is refused from now on. A second revocation keeps the first's reason. */
export async function revokeDevice(db: ServerDb, viewer: DeviceViewer, id: string, revokedReason: string, now: Date): Promise<Device> {
  requireAdmin(viewer);
  const inOrganisation = eq(users.organisationId, viewer.organisationId);
  await oneDevice(db, viewer, id, now, inOrganisation);
  await db.transaction(async (tx) => {
    await tx
      .update(devices)
      .set({ revokedAt: now, revokedBy: viewer.id, revokedReason })
      .where(and(eq(devices.id, id), isNull(devices.revokedAt)));
    await tx
      .update(authSessions)
      .set({ revokedAt: now, updatedAt: now })
      .where(and(eq(authSessions.deviceId, id), isNull(authSessions.revokedAt)));
  });
  return oneDevice(db, viewer, id, now, inOrganisation);
}

/**
 * The offline lock that applies to a user's device (issue 32): the organisation's days, or the
 * device's own when an administrator shortened them. A session of no device gets the organisation's.
 */
export async function effectiveOfflineLockDays(db: ServerDb, userId: string, deviceId: string | null): Promise<number> {
  const [row] = await db
    .select({ organisation: organisations.offlineLockDays, device: devices.offlineLockDays })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .leftJoin(devices, and(eq(devices.id, deviceId ?? ''), eq(devices.userId, users.id)))
    .where(eq(users.id, userId));
  if (!row) throw new AppFailure('not_found', `user ${userId} not found`);
  // An organisation's limit lowered below a device's own applies to that device too.
  return Math.min(row.organisation, row.device ?? row.organisation);
}

/**
 * Sets a device's own offline lock (null follows the organisation's again). It may only shorten
 * the organisation's: a longer one would let a lost laptop stay open past the organisation's rule.
 */
export async function setDeviceOfflineLock(db: ServerDb, viewer: DeviceViewer, id: string, days: number | null, now: Date): Promise<Device> {
  requireAdmin(viewer);
  const inOrganisation = eq(users.organisationId, viewer.organisationId);
  await oneDevice(db, viewer, id, now, inOrganisation);
  if (days !== null) {
    const [organisation] = await db.select({ days: organisations.offlineLockDays }).from(organisations).where(eq(organisations.id, viewer.organisationId));
    const limit = organisation?.days ?? days;
    if (days > limit) {
      const message = `a device's offline lock may only be shorter than the organisation's ${limit} days`;
      throw new AppFailure('validation_failed', message, [{ path: 'offlineLockDays', message }], reason('offlineLockLonger', { days: limit }));
    }
  }
  await db.update(devices).set({ offlineLockDays: days }).where(eq(devices.id, id));
  return oneDevice(db, viewer, id, now, inOrganisation);
}
