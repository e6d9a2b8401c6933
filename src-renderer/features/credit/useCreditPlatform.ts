import { organisationSettingsSchema } from '../../../src-shared/api/organisation';
import { useCachedReadQuery } from '../../api/api';

/** Many components read the flag (each ledger row's action): asked of the server at most once a minute. */
const freshForSeconds = 60;

/**
 * The organisation's counterparty credit platform configuration (spec 6): read from the server,
 * or as last read offline. Off while unknown (never read on this device): a credit view is shown
 * only when the organisation is known to subscribe to a credit platform.
 */
export function useCreditPlatform(): boolean {
  const { data } = useCachedReadQuery({ endpoint: 'organisationSettings' }, { refetchOnMountOrArgChange: freshForSeconds });
  const settings = organisationSettingsSchema.safeParse(data?.value);
  return settings.success && settings.data.creditPlatformEnabled;
}
