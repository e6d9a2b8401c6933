import { v7 as uuidv7 } from 'uuid';
import type { intellectualPropertyEndpoints } from '../../src-shared/api/intellectual-property';
import type { ServerDb } from '../db/database';
import { basedOnVersion, ifMatchVersion } from '../http/write-safety';
import type { FeatureHandlers } from '../http/routes';
import * as register from './repository';

export function intellectualPropertyHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof intellectualPropertyEndpoints> {
  const based = <B extends { version?: number | undefined }>(body: B, headers: Parameters<typeof basedOnVersion>[1]): B => ({ ...body, version: basedOnVersion(body.version, headers) });
  return {
    ipOrganizationList: async ({ user, query }) => ({ list: await register.listOrganizations(db, user, query.q) }),
    ipOrganizationCreate: async ({ user, body }) => register.createOrganization(db, user, uuidv7(), body, now()),
    ipOrganizationUpdate: async ({ user, params, body, headers }) => register.updateOrganization(db, user, params.id, based(body, headers), now()),
    ipOrganizationDelete: async ({ user, params, headers }) => register.deleteOrganization(db, user, params.id, ifMatchVersion(headers)),
    ipList: async ({ user, query }) => register.listProperties(db, user, query),
    ipCreate: async ({ user, body }) => register.createProperty(db, user, uuidv7(), body, now()),
    ipGet: async ({ user, params }) => register.getProperty(db, user, params.id),
    ipUpdate: async ({ user, params, body, headers }) => register.updateProperty(db, user, params.id, based(body, headers), now()),
    ipDelete: async ({ user, params, headers }) => register.deleteProperty(db, user, params.id, ifMatchVersion(headers)),
    ipStatus: async ({ user, params, body, headers }) => register.changeStatus(db, user, params.id, based(body, headers), now()),
    ipTransfer: async ({ user, params, body, headers }) => register.transferProperty(db, user, params.id, based(body, headers), uuidv7, now()),
    ipRecordCreate: async ({ user, params, body }) => register.createRecord(db, user, params.id, body, uuidv7, now()),
    ipRecordUpdate: async ({ user, params, body, headers }) => register.updateRecord(db, user, params.id, params.recordId, based(body, headers), now()),
    ipRecordDelete: async ({ user, params, headers }) => register.deleteRecord(db, user, params.id, params.recordId, ifMatchVersion(headers), now()),
    ipImport: async ({ user, body }) => register.importProperties(db, user, body, uuidv7, now()),
    ipTemplateUrl: async ({ query }) => register.templateUrl(query.type, query.language),
  };
}
