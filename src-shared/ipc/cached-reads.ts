import { z } from 'zod';
import { endpoints, type EndpointName } from '../api/endpoints';

// Cached online reads (issue 15): a management screen reads from the server while it can be
// reached; the core keeps the last answer of each read (keyed by endpoint and parameters) with its
// time, and answers that "as of" its time while the server is away. Writes on these screens are
// online only and go through `online.call`, refused at once with 'offline' while the server is away.

/** The server reads a screen may make through `cached.read`: add a screen's reads here. */
export const cachedReadNames = [
  'lawFirmList',
  'lawyersByLawFirms',
  'lawyerList',
  'caseTypeTree',
  // Counterparties (issue 15).
  'counterpartyGet',
  'counterpartExternalDetail',
  'counterpartMonitoring',
  'counterpartRiskAlert',
  'contractCreditRisk',
  'counterpartMonitoringUrl',
  // The scene config dialog's performance task cascader (issue 14).
  'performanceList',
  // Projects, numbering and intellectual property (issue 15).
  'projectList',
  // The contract form's project picker (issue 30), kept ahead for drafting offline.
  'projectListAll',
  // The contract form's dynamic selects (issue 30): each page kept when read.
  'dynamicSelect',
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
  'userDirectory',
  'departmentDirectory',
  'ipOrganizationList',
  'ipList',
  'ipGet',
  'ipTemplateUrl',
  // The organisation's settings: the credit platform configuration, read offline too.
  'organisationSettings',
  // Devices (issue 32): the user's own, and the organisation's for administrators.
  'myDevices',
  'adminDevices',
  // The templates screen and editor (issue 29).
  'templateList',
  'templateDetail',
  // The definitions editor starts a new performance from its type's default form (issue 28).
  'performanceDefaultForm',
] as const satisfies readonly EndpointName[];
export type CachedReadName = (typeof cachedReadNames)[number];

export const cachedReadRequestSchema = z
  .object({
    endpoint: z.enum(cachedReadNames),
    params: z.record(z.string(), z.string()).default({}),
    query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  })
  .strict()
  .refine((request) => request.endpoint in endpoints, 'unknown endpoint');
export type CachedReadRequest = z.input<typeof cachedReadRequestSchema>;

/** A read's answer and how fresh it is. */
export const cachedAnswerSchema = <T extends z.ZodType>(value: T) =>
  z.object({
    value,
    /** When the server gave this answer (ISO instant). */
    asOf: z.string(),
    /** Answered from the replica because the server could not be reached: it is as of `asOf`. */
    offline: z.boolean(),
  });
export type CachedAnswer<T> = { value: T; asOf: string; offline: boolean };
