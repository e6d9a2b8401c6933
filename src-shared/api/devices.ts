import { z } from 'zod';
import { apiPrefix, endpoint, idParams, none, trimmed, type Endpoint } from './endpoint';
import { offlineLockDaysSchema } from './organisation';

// Devices (issue 32): the server knows each signed-in installation. The desktop core names itself
// at sign-in; each session belongs to its device. Users see theirs and sign any of them out;
// administrators see every device of the organisation and revoke one, which refuses it for good.

/** The installation's own random id, made once per data folder (src-main/core/session/device-identity.ts). */
export const deviceIdSchema = z.string().uuid();

/** What the core tells the server about itself when signing in. */
export const deviceDescriptionSchema = z
  .object({
    id: deviceIdSchema,
    name: trimmed(100).pipe(z.string().min(1)),
    platform: trimmed(40).pipe(z.string().min(1)),
    appVersion: trimmed(40).pipe(z.string().min(1)),
  })
  .strict();
export type DeviceDescription = z.infer<typeof deviceDescriptionSchema>;

export const deviceSchema = z.object({
  /** The server's id of this user's device (one installation signed in by two users is two devices). */
  id: z.string(),
  /** The installation's own id. */
  deviceId: z.string(),
  /** The device of the session asking. */
  current: z.boolean(),
  userId: z.string(),
  username: z.string(),
  userDisplayName: z.string(),
  name: z.string(),
  platform: z.string(),
  appVersion: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** Sessions of it that are open now: 0 once signed out. */
  openSessions: z.number().int(),
  revokedAt: z.string().nullable(),
  revokedReason: z.string().nullable(),
  /** An administrator's shorter offline lock for this device; null follows the organisation's. */
  offlineLockDays: z.number().int().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

export const adminDeviceListQuerySchema = z.object({ userId: z.string().min(1).max(64).optional() }).strict();

export const deviceRevokeRequestSchema = z
  .object({ reason: trimmed(500).pipe(z.string().min(1, 'please give the reason the user will see')) })
  .strict();

/** Null gives the device the organisation's offline lock again. */
export const deviceOfflineLockRequestSchema = z.object({ offlineLockDays: offlineLockDaysSchema.nullable() }).strict();

export const devicesEndpoints = {
  /** The signed-in user's own devices. */
  myDevices: endpoint({
    method: 'GET', path: `${apiPrefix}/devices`, auth: true, query: none, body: none, response: z.array(deviceSchema),
  }),
  /** Ends every session of one of the user's devices; it may sign in again. */
  deviceSignOut: endpoint({
    method: 'POST', path: `${apiPrefix}/devices/:id/sign-out`, auth: true, params: idParams, query: none, body: none, response: deviceSchema,
  }),
  /** Administrators only: every device of the organisation, or one user's. */
  adminDevices: endpoint({
    method: 'GET', path: `${apiPrefix}/admin/devices`, auth: true, query: adminDeviceListQuerySchema, body: none, response: z.array(deviceSchema),
  }),
  /** Administrators only: refuses the device on every call and at sign-in, for good. */
  deviceRevoke: endpoint({
    method: 'POST', path: `${apiPrefix}/admin/devices/:id/revoke`, auth: true, params: idParams, query: none, body: deviceRevokeRequestSchema, response: deviceSchema,
  }),
  /** Administrators only: the device's own offline lock, never longer than the organisation's. */
  deviceOfflineLock: endpoint({
    method: 'PUT', path: `${apiPrefix}/admin/devices/:id/offline-lock`, auth: true, params: idParams, query: none, body: deviceOfflineLockRequestSchema, response: deviceSchema,
  }),
} as const satisfies Record<string, Endpoint>;
