import { z } from 'zod';
import { apiPrefix, endpoint, none, type Endpoint } from './endpoint';

// The signed-in user's organisation settings: whether the organisation subscribes to a
// counterparty credit platform (spec 6), which gates the risk reminders, the credit-risk dialog
// and the monitoring views; and after how many days without the server a replica asks for its
// user's password (the offline lock, issue 32). Both paths are defined here.

export const defaultOfflineLockDays = 30;
export const maxOfflineLockDays = 365;
export const offlineLockDaysSchema = z.number().int().min(1).max(maxOfflineLockDays);

export const organisationSettingsSchema = z.object({
  /** The counterparty credit platform configuration is on. */
  creditPlatformEnabled: z.boolean(),
  /**
   * A replica that has not reached the server for this many days asks for the password. An answer
   * kept offline by a build before the lock has none: it reads as the default.
   */
  offlineLockDays: offlineLockDaysSchema.default(defaultOfflineLockDays),
});
export type OrganisationSettings = z.infer<typeof organisationSettingsSchema>;

/** The settings to change: each is set on its own (two administrators' screens edit different ones). */
export const organisationSettingsUpdateSchema = z
  .object({ creditPlatformEnabled: z.boolean().optional(), offlineLockDays: offlineLockDaysSchema.optional() })
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'nothing to change');

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
