import { z } from 'zod';
import { isoDateSchema } from '../domain/dates';
import { idSchema } from '../domain/contract';
import { ipImportColumns, ipRecordKinds, ipStatuses, ipTypes } from '../domain/intellectual-property';
import { languages } from '../i18n/languages';
import { pageSchema } from './envelope';
import { apiPrefix, endpoint, idParams, none, pageNum, trimmed, type Endpoint } from './endpoint';
import { pageSizeParam } from './query';

// The intellectual-property register (spec 7, "Intellectual property helpers"). The spec gives
// only the paths; the payloads are designed here (docs/api/intellectual-property.md).

/** PUT replaces the whole record: an absent optional field is cleared. */
/** A text longer than its column allows; the UI words it with the number (src-renderer/features/manage/issues.ts). */
export const tooLongMessage = (max: number) => `at most ${max} characters`;
export const ipTypeMessage = 'please choose a type of the list';
export const ipStatusMessage = 'please choose a status of the list';

const optionalText = (max: number) => trimmed(max).nullable().default(null);
const required = (max: number, message: string) => z.string({ error: message }).trim().min(1, message).max(max, tooLongMessage(max));
const longText = (max: number) => z.string().trim().max(max, tooLongMessage(max));
const version = z.number().int().min(1).optional();

export const ipOrganizationInputSchema = z
  .object({
    name: required(200, 'please enter the name'),
    creditCode: optionalText(64),
    contactName: optionalText(100),
    contactPhone: optionalText(50),
    remark: trimmed(2000).default(''),
    version,
  })
  .strict();

export const ipOrganizationSchema = z.object({
  id: idSchema,
  name: z.string(),
  creditCode: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  remark: z.string(),
  /** Rights the organisation holds now. */
  propertyCount: z.number().int(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});

export const expirationBeforeApplicationMessage = 'the expiration date cannot be earlier than the application date';
export const registrationDateMessage = 'please enter the registration date';

/** The fields of a right, checked the same way when entered and when imported. */
export const ipFieldsSchema = z
  .object({
    name: required(200, 'please enter the name'),
    type: z.enum(ipTypes, { error: ipTypeMessage }),
    registrationNumber: required(100, 'please enter the registration number'),
    status: z.enum(ipStatuses, { error: ipStatusMessage }).default('filed'),
    applicationDate: isoDateSchema.nullable().default(null),
    registrationDate: isoDateSchema.nullable().default(null),
    expirationDate: isoDateSchema.nullable().default(null),
    remark: longText(2000).default(''),
  })
  .strict();

type IpFields = z.output<typeof ipFieldsSchema>;

/** Cross-field rules: dates in order, a registered right has its registration date. */
export function ipFieldIssues(fields: IpFields): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (fields.applicationDate && fields.expirationDate && fields.expirationDate < fields.applicationDate) {
    issues.push({ path: 'expirationDate', message: expirationBeforeApplicationMessage });
  }
  if (fields.status === 'registered' && !fields.registrationDate) issues.push({ path: 'registrationDate', message: registrationDateMessage });
  return issues;
}

const withCrossFieldRules = <S extends z.ZodType<IpFields>>(schema: S) =>
  schema.superRefine((fields, context) => {
    for (const issue of ipFieldIssues(fields)) context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });

export const ipInputSchema = withCrossFieldRules(ipFieldsSchema.extend({ ownerOrganizationId: z.string().uuid(), version }).strict());

export const ipRecordInputSchema = z
  .object({
    kind: z.enum(ipRecordKinds),
    recordDate: isoDateSchema,
    title: required(200, 'please enter the title'),
    content: trimmed(4000).default(''),
    version,
  })
  .strict();

const ipRecordSchema = z.object({
  id: idSchema,
  kind: z.enum(ipRecordKinds),
  recordDate: z.string(),
  title: z.string(),
  content: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});

const ipTransferSchema = z.object({
  id: idSchema,
  fromOrganizationId: idSchema,
  fromOrganizationName: z.string(),
  toOrganizationId: idSchema,
  toOrganizationName: z.string(),
  transferDate: z.string(),
  reason: z.string(),
  createTime: z.string(),
});

export const ipSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.enum(ipTypes),
  registrationNumber: z.string(),
  ownerOrganizationId: idSchema,
  ownerOrganizationName: z.string(),
  status: z.enum(ipStatuses),
  applicationDate: z.string().nullable(),
  registrationDate: z.string().nullable(),
  expirationDate: z.string().nullable(),
  remark: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});
export type IntellectualProperty = z.infer<typeof ipSchema>;

export const ipDetailSchema = ipSchema.extend({ records: z.array(ipRecordSchema), transfers: z.array(ipTransferSchema) });

/** One import row: the owner is named (organisations are matched by name). */
export const ipImportRowSchema = withCrossFieldRules(ipFieldsSchema.extend({ ownerOrganizationName: required(200, 'please enter the owner organization') }).strict());

export const ipImportSchema = z.union([
  z.object({ rows: z.array(z.record(z.string(), z.unknown())).min(1).max(5000) }).strict(),
  /** CSV text with the template's header row: the columns' codes (ipImportColumns) or their labels in either language. */
  z.object({ csv: z.string().min(1).max(2_000_000) }).strict(),
]);

const recordParams = z.object({ id: z.string().uuid(), recordId: z.string().uuid() }).strict();
const deleted = z.object({ deleted: z.literal(true) });
const base = `${apiPrefix}/intellectual_properties`;

export const intellectualPropertyEndpoints = {
  ipOrganizationList: endpoint({
    method: 'GET', path: `${apiPrefix}/intellectual_property_organizations`, auth: true,
    query: z.object({ q: trimmed(100).optional() }).strict(), body: none,
    response: z.object({ list: z.array(ipOrganizationSchema) }),
  }),
  ipOrganizationCreate: endpoint({
    method: 'POST', path: `${apiPrefix}/intellectual_property_organizations`, auth: true, query: none, body: ipOrganizationInputSchema,
    response: ipOrganizationSchema,
  }),
  ipOrganizationUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/intellectual_property_organizations/:id`, auth: true, params: idParams, query: none,
    body: ipOrganizationInputSchema, response: ipOrganizationSchema,
  }),
  ipOrganizationDelete: endpoint({
    method: 'DELETE', path: `${apiPrefix}/intellectual_property_organizations/:id`, auth: true, params: idParams, query: none, body: none,
    response: deleted,
  }),
  /** Defined here: the register's list. */
  ipList: endpoint({
    method: 'GET', path: base, auth: true,
    query: z
      .object({
        pageNum, pageSize: pageSizeParam(20), q: trimmed(100).optional(), type: z.enum(ipTypes).optional(),
        status: z.enum(ipStatuses).optional(), ownerOrganizationId: z.string().uuid().optional(),
      })
      .strict(),
    body: none,
    response: pageSchema(ipSchema),
  }),
  /** Defined here: one right entered by hand. */
  ipCreate: endpoint({ method: 'POST', path: base, auth: true, query: none, body: ipInputSchema, response: ipDetailSchema }),
  ipGet: endpoint({ method: 'GET', path: `${base}/:id`, auth: true, params: idParams, query: none, body: none, response: ipDetailSchema }),
  ipUpdate: endpoint({ method: 'PUT', path: `${base}/:id`, auth: true, params: idParams, query: none, body: ipInputSchema, response: ipDetailSchema }),
  ipDelete: endpoint({ method: 'DELETE', path: `${base}/:id`, auth: true, params: idParams, query: none, body: none, response: deleted }),
  ipStatus: endpoint({
    method: 'PUT', path: `${base}/:id/status`, auth: true, params: idParams, query: none,
    body: z.object({ status: z.enum(ipStatuses), registrationDate: isoDateSchema.optional(), version }).strict(),
    response: ipDetailSchema,
  }),
  ipTransfer: endpoint({
    method: 'PUT', path: `${base}/:id/transfer`, auth: true, params: idParams, query: none,
    body: z.object({ toOrganizationId: z.string().uuid(), transferDate: isoDateSchema, reason: trimmed(2000).default(''), version }).strict(),
    response: ipDetailSchema,
  }),
  ipRecordCreate: endpoint({
    method: 'POST', path: `${base}/:id/record`, auth: true, params: idParams, query: none, body: ipRecordInputSchema, response: ipDetailSchema,
  }),
  ipRecordUpdate: endpoint({
    method: 'PUT', path: `${base}/:id/record/:recordId`, auth: true, params: recordParams, query: none, body: ipRecordInputSchema,
    response: ipDetailSchema,
  }),
  ipRecordDelete: endpoint({
    method: 'DELETE', path: `${base}/:id/record/:recordId`, auth: true, params: recordParams, query: none, body: none, response: ipDetailSchema,
  }),
  ipImport: endpoint({
    method: 'POST', path: `${base}/import`, auth: true, query: none, body: ipImportSchema,
    response: z.object({ imported: z.number().int() }),
  }),
  ipTemplateUrl: endpoint({
    method: 'GET', path: `${base}/template_url`, auth: true, query: z.object({ type: z.enum(ipTypes), language: z.enum(languages).default('en') }).strict(), body: none,
    /** A data: URL of the CSV import template for the type in the language (its header and codes as the user reads them), its file name and columns. */
    response: z.object({ url: z.string(), fileName: z.string(), columns: z.array(z.enum(ipImportColumns)) }),
  }),
} as const satisfies Record<string, Endpoint>;
