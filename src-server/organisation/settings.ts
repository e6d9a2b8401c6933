import { eq } from 'drizzle-orm';
import { creditPlatformOffMessage, type OrganisationSettings } from '../../src-shared/api/organisation';
import { AppFailure, reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { organisations } from '../db/schema';
import type { OrgViewer } from '../http/feature-helpers';
import { ifMatchVersion, type Headers } from '../http/write-safety';

// Organisation settings: one row per organisation (the organisations table), read by every user
// of it and changed by its administrators.

const settingsColumns = { creditPlatformEnabled: organisations.creditPlatformEnabled, offlineLockDays: organisations.offlineLockDays };

export async function organisationSettings(db: ServerDb, viewer: Pick<OrgViewer, 'organisationId'>): Promise<OrganisationSettings> {
  const [row] = await db
    .select(settingsColumns)
    .from(organisations)
    .where(eq(organisations.id, viewer.organisationId));
  if (!row) throw new AppFailure('not_found', `organisation ${viewer.organisationId} not found`);
  return row;
}

/**
 * Each setting sent is set, the others kept. They have no version of their own: the last write
 * wins. An If-Match header is still read as every write reads it, so a malformed one is refused
 * (400) as elsewhere.
 */
export async function updateOrganisationSettings(db: ServerDb, viewer: OrgViewer, settings: Partial<OrganisationSettings>, headers: Headers): Promise<OrganisationSettings> {
  ifMatchVersion(headers);
  if (viewer.role !== 'admin') throw new AppFailure('forbidden', 'only administrators may change the organisation settings', undefined, reason('adminsOnly'));
  const [row] = await db
    .update(organisations)
    .set(settings)
    .where(eq(organisations.id, viewer.organisationId))
    .returning(settingsColumns);
  if (!row) throw new AppFailure('not_found', `organisation ${viewer.organisationId} not found`);
  return row;
}

/** The credit-platform reads refuse while the organisation has no credit platform configured. */
export async function requireCreditPlatform(db: ServerDb, viewer: Pick<OrgViewer, 'organisationId'>): Promise<void> {
  if (!(await organisationSettings(db, viewer)).creditPlatformEnabled) throw new AppFailure('forbidden', creditPlatformOffMessage, undefined, reason('creditPlatformOff'));
}
