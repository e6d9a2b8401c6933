import { v7 as uuidv7 } from 'uuid';
import type { counterpartiesEndpoints } from '../../src-shared/api/counterparties';
import type { ServerDb } from '../db/database';
import { basedOnVersion, orgViewer } from '../http/feature-helpers';
import type { FeatureHandlers } from '../http/routes';
import {
  createCounterparty,
  externalDetail,
  getCounterparty,
  listCounterparties,
  monitoringResults,
  monitoringUrl,
  riskAlerts,
  searchCounterparts,
  updateCounterparty,
} from './repository';

export function counterpartiesHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof counterpartiesEndpoints> {
  const viewer = orgViewer.bind(null, db);
  return {
    counterpartSearch: async ({ user, query }) => ({ list: await searchCounterparts(db, await viewer(user), query.abbr, query.type) }),
    counterpartExternalDetail: async ({ user, params, query }) => externalDetail(db, await viewer(user), params.id, query.refresh ?? false, now()),
    counterpartRiskAlert: async ({ user }) => ({ list: await riskAlerts(db, await viewer(user)) }),
    counterpartMonitoring: async ({ user, params }) => ({ list: await monitoringResults(db, await viewer(user), params.id) }),
    counterpartMonitoringUrl: async ({ user, params }) => monitoringUrl(db, await viewer(user), params.id),
    counterpartyList: async ({ user, query }) => listCounterparties(db, await viewer(user), query),
    counterpartyCreate: async ({ user, body }) => createCounterparty(db, await viewer(user), uuidv7(), body, now()),
    counterpartyGet: async ({ user, params }) => getCounterparty(db, await viewer(user), params.id),
    counterpartyUpdate: async ({ user, params, body, headers }) =>
      updateCounterparty(db, await viewer(user), params.id, { ...body, version: basedOnVersion(body.version, headers) }, now()),
  };
}
