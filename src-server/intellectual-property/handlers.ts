import { v7 as uuidv7 } from 'uuid';
import type { intellectualPropertyEndpoints } from '../../src-shared/api/intellectual-property';
import type { ServerDb } from '../db/database';
import { basedOnVersion, orgViewer } from '../http/feature-helpers';
import type { FeatureHandlers } from '../http/routes';
import * as register from './repository';

export function intellectualPropertyHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof intellectualPropertyEndpoints> {
  const viewer = orgViewer.bind(null, db);
  const based = <B extends { version?: number | undefined }>(body: B, headers: Parameters<typeof basedOnVersion>[1]): B => ({ ...body, version: basedOnVersion(body.version, headers) });
  return {
    ipOrganizationList: async ({ user, query }) => ({ list: await register.listOrganizations(db, await viewer(user), query.q) }),
    ipOrganizationCreate: async ({ user, body }) => register.createOrganization(db, await viewer(user), uuidv7(), body, now()),
    ipOrganizationUpdate: async ({ user, params, body, headers }) => register.updateOrganization(db, await viewer(user), params.id, based(body, headers), now()),
    ipOrganizationDelete: async ({ user, params }) => register.deleteOrganization(db, await viewer(user), params.id),
    ipList: async ({ user, query }) => register.listProperties(db, await viewer(user), query),
    ipCreate: async ({ user, body }) => register.createProperty(db, await viewer(user), uuidv7(), body, now()),
    ipGet: async ({ user, params }) => register.getProperty(db, await viewer(user), params.id),
    ipUpdate: async ({ user, params, body, headers }) => register.updateProperty(db, await viewer(user), params.id, based(body, headers), now()),
    ipDelete: async ({ user, params }) => register.deleteProperty(db, await viewer(user), params.id),
    ipStatus: async ({ user, params, body, headers }) => register.changeStatus(db, await viewer(user), params.id, based(body, headers), now()),
    ipTransfer: async ({ user, params, body, headers }) => register.transferProperty(db, await viewer(user), params.id, based(body, headers), uuidv7, now()),
    ipRecordCreate: async ({ user, params, body }) => register.createRecord(db, await viewer(user), params.id, body, uuidv7, now()),
    ipRecordUpdate: async ({ user, params, body, headers }) => register.updateRecord(db, await viewer(user), params.id, params.recordId, based(body, headers), now()),
    ipRecordDelete: async ({ user, params }) => register.deleteRecord(db, await viewer(user), params.id, params.recordId, now()),
    ipImport: async ({ user, body }) => register.importProperties(db, await viewer(user), body, uuidv7, now()),
    ipTemplateUrl: async ({ query }) => register.templateUrl(query.type),
  };
}
