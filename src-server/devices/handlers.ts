import type { devicesEndpoints } from '../../src-shared/api/devices';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import { adminDevices, myDevices, revokeDevice, setDeviceOfflineLock, signDeviceOut } from './service';

export function devicesHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof devicesEndpoints> {
  return {
    myDevices: ({ user }) => myDevices(db, user, now()),
    deviceSignOut: ({ user, params }) => signDeviceOut(db, user, params.id, now()),
    adminDevices: ({ user, query }) => adminDevices(db, user, query, now()),
    deviceRevoke: ({ user, params, body }) => revokeDevice(db, user, params.id, body.reason, now()),
    deviceOfflineLock: ({ user, params, body }) => setDeviceOfflineLock(db, user, params.id, body.offlineLockDays, now()),
  };
}
