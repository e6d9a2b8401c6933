import type { organisationEndpoints } from '../../src-shared/api/organisation';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import { organisationSettings, updateOrganisationSettings } from './settings';

export function organisationHandlers(db: ServerDb, _now: () => Date): FeatureHandlers<typeof organisationEndpoints> {
  return {
    organisationSettings: ({ user }) => organisationSettings(db, user),
    organisationSettingsUpdate: ({ user, body, headers }) => updateOrganisationSettings(db, user, body, headers),
  };
}
