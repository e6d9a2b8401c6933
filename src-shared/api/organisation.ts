import { z } from 'zod';
import { apiPrefix, endpoint, none, type Endpoint } from './endpoint';

// The signed-in user's organisation settings. Today one: whether the organisation subscribes to a
// counterparty credit platform (spec 6), which gates the risk reminders, the credit-risk dialog
// and the monitoring views. Both paths are defined here.

export const organisationSettingsSchema = z.object({
  /** The counterparty credit platform configuration is on. */
  creditPlatformEnabled: z.boolean(),
});
export type OrganisationSettings = z.infer<typeof organisationSettingsSchema>;

export const organisationSettingsUpdateSchema = z.object({ creditPlatformEnabled: z.boolean() }).strict();

/** The refusal of a credit-platform read while the configuration is off. */
export const creditPlatformOffMessage = 'the counterparty credit platform is not configured';

export const organisationEndpoints = {
  organisationSettings: endpoint({
    method: 'GET', path: `${apiPrefix}/organisation/settings`, auth: true, query: none, body: none,
    response: organisationSettingsSchema,
  }),
  /** Administrators only. */
  organisationSettingsUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/organisation/settings`, auth: true, query: none, body: organisationSettingsUpdateSchema,
    response: organisationSettingsSchema,
  }),
} as const satisfies Record<string, Endpoint>;
