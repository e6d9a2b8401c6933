import { z } from 'zod';
import { endpoints, type EndpointName } from '../api/endpoints';

// The management screens (issue 15: projects, numbering, intellectual property) talk to the
// server through the core by endpoint name: reads are kept for offline reading with their time,
// writes need the server and are refused at once with 'offline' while it is away.

/** The server reads the management screens make (cached by the core). */
export const manageReadNames = [
  'projectList',
  'projectGet',
  'projectContracts',
  'contractListVisible',
  'contractTypeList',
  'contractNumberRules',
  'contractNumberAbbrSettings',
  'contractNumberRulesPreview',
  'templateNumberRules',
  'templateNumberAbbrSettings',
  'templateNumberRulesPreview',
  'contractNumberEditors',
  'ipOrganizationList',
  'ipList',
  'ipGet',
  'ipTemplateUrl',
] as const satisfies readonly EndpointName[];
export type ManageReadName = (typeof manageReadNames)[number];

/** The server writes the management screens make (online only). */
export const manageWriteNames = [
  'projectCreate',
  'projectUpdate',
  'projectDelete',
  'projectAddContracts',
  'projectRemoveContracts',
  'saveContractNumberRules',
  'saveContractNumberAbbrSetting',
  'deleteContractNumberAbbrSetting',
  'saveTemplateNumberRules',
  'saveTemplateNumberAbbrSetting',
  'deleteTemplateNumberAbbrSetting',
  'saveContractNumberEditors',
  'designateDepartment',
  'ipOrganizationCreate',
  'ipOrganizationUpdate',
  'ipOrganizationDelete',
  'ipUpdate',
  'ipDelete',
  'ipStatus',
  'ipTransfer',
  'ipRecordCreate',
  'ipRecordUpdate',
  'ipRecordDelete',
  'ipImport',
] as const satisfies readonly EndpointName[];
export type ManageWriteName = (typeof manageWriteNames)[number];

const requestParts = {
  params: z.record(z.string(), z.string()).default({}),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
};

export const manageReadRequestSchema = z
  .object({ endpoint: z.enum(manageReadNames), ...requestParts })
  .strict()
  .refine((request) => request.endpoint in endpoints, 'unknown endpoint');

export const manageWriteRequestSchema = z
  .object({ endpoint: z.enum(manageWriteNames), ...requestParts, body: z.unknown().optional() })
  .strict()
  .refine((request) => request.endpoint in endpoints, 'unknown endpoint');

/** A read's answer: the server's data, or the kept one "as of" fetchedAt while it is away. */
export const manageReadResponseSchema = z.object({
  data: z.unknown(),
  /** When the server gave this answer (ISO instant). */
  fetchedAt: z.string(),
  /** Answered from the kept copy because the server could not be reached. */
  offline: z.boolean(),
});
export type ManageReadResponse = z.infer<typeof manageReadResponseSchema>;
