import { v7 as uuidv7 } from 'uuid';
import type { counterpartiesEndpoints } from '../../src-shared/api/counterparties';
import type { ServerDb } from '../db/database';
import { basedOnVersion } from '../http/write-safety';
import type { FeatureHandlers } from '../http/routes';
import { requireCreditPlatform } from '../organisation/settings';
import {
  contractCreditRisk,
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

export function counterpartiesHandlers(db: ServerDb, now: () => Date, monitoringUrlTemplate?: string): FeatureHandlers<typeof counterpartiesEndpoints> {
  return {
    counterpartSearch: async ({ user, query }) => ({ list: await searchCounterparts(db, user, query.abbr, query.type) }),
    counterpartExternalDetail: async ({ user, params, query }) => externalDetail(db, user, params.id, query.refresh ?? false, now()),
    counterpartRiskAlert: async ({ user }) => {
      await requireCreditPlatform(db, user);
      return { list: await riskAlerts(db, user) };
    },
    counterpartMonitoring: async ({ user, params }) => {
      await requireCreditPlatform(db, user);
      return { list: await monitoringResults(db, user, params.id) };
    },
    counterpartMonitoringUrl: async ({ user, params }) => {
      await requireCreditPlatform(db, user);
      return monitoringUrl(db, user, params.id, monitoringUrlTemplate);
    },
    contractCreditRisk: async ({ user, params }) => {
      await requireCreditPlatform(db, user);
      return contractCreditRisk(db, user, params.id);
    },
    counterpartyList: async ({ user, query }) => listCounterparties(db, user, query),
    counterpartyCreate: async ({ user, body }) => createCounterparty(db, user, uuidv7(), body, now()),
    counterpartyGet: async ({ user, params }) => getCounterparty(db, user, params.id),
    counterpartyUpdate: async ({ user, params, body, headers }) =>
      updateCounterparty(db, user, params.id, { ...body, version: basedOnVersion(body.version, headers) }, now()),
  };
}
