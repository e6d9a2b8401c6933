import { hostname } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { z } from 'zod';
import type { DeviceDescription } from '../../../src-shared/api/devices';
import { readTextOrNull, writeFileAtomically } from '../files';

// The installation's own random id (issue 32), made once and kept in the data folder beside the
// replicas. It outlives a wipe on purpose: a revoked device stays refused when signed into again.

const deviceFileSchema = z.object({ id: z.string().uuid() });

export function deviceIdentity(dataDir: string, appVersion: string): () => DeviceDescription {
  const path = join(dataDir, 'device.json');
  return () => {
    let id: string;
    try {
      id = deviceFileSchema.parse(JSON.parse(readTextOrNull(path) ?? '')).id;
    } catch {
      id = uuidv4();
      writeFileAtomically(path, JSON.stringify({ id }));
    }
    return { id, name: hostname().slice(0, 100) || 'unnamed', platform: process.platform, appVersion: appVersion.slice(0, 40) };
  };
}
