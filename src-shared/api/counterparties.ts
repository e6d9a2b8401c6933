import { z } from 'zod';
import { isoDateSchema } from '../domain/dates';
import { idSchema } from '../domain/contract';
import { CreditRating, PartySubtype, PartyType } from '../domain/enums';
import { moneySchema } from '../domain/money';
import { bankAccountMessage, counterpartyNameMessage, isValidBankAccount } from '../rules/counterparties';
import { pageSchema } from './envelope';
import { apiPrefix, endpoint, idParams, none, pageNum, trimmed, type Endpoint } from './endpoint';
import { booleanParam, pageSizeParam } from './query';

// Counterparties (spec 3, "Counterparty"): the party pickers' search, inner and outer party
// lists and forms, the external detail with credit rating, risks and monitoring.

export const partyTypeSchema = z.union([z.literal(PartyType.Inner), z.literal(PartyType.Outer)]);
export const partySubtypeSchema = z.union([z.literal(PartySubtype.Organization), z.literal(PartySubtype.NaturalPerson)]);
export const creditRatingSchema = z.union(Object.values(CreditRating).map((r) => z.literal(r)) as [z.ZodLiteral<CreditRating>, ...z.ZodLiteral<CreditRating>[]]);

/** PUT replaces the whole record: an absent optional field is cleared. */
const optionalText = (max: number) => trimmed(max).nullable().default(null);

export const bankSchema = z
  .object({
    name: trimmed(200).min(1, 'please enter the bank name'),
    account: z.string().trim().refine(isValidBankAccount, bankAccountMessage),
    accountName: trimmed(200).min(1, 'please enter the account name'),
  })
  .strict();

export const contactSchema = z
  .object({
    name: trimmed(100).min(1, counterpartyNameMessage),
    phone: optionalText(50),
    email: optionalText(200),
    title: optionalText(100),
  })
  .strict();

/** Business-registration fields of an organisation (spec 3, "External detail"). */
export const registrationSchema = z
  .object({
    enterpriseType: optionalText(100),
    registeredCapital: optionalText(100),
    historyName: optionalText(500),
    businessScope: optionalText(4000),
    termStart: isoDateSchema.nullable().optional(),
    termEnd: isoDateSchema.nullable().optional(),
    governingBody: optionalText(200),
    legalPerson: optionalText(100),
    establishmentDate: isoDateSchema.nullable().optional(),
    cancellationDate: isoDateSchema.nullable().optional(),
    approvalDate: isoDateSchema.nullable().optional(),
    registrationStatus: optionalText(100),
  })
  .strict();

export const counterpartyInputSchema = z
  .object({
    type: partyTypeSchema,
    subtype: partySubtypeSchema,
    name: z.string({ error: counterpartyNameMessage }).trim().min(1, counterpartyNameMessage).max(200),
    keyword: optionalText(100),
    idNumber: optionalText(64),
    address: optionalText(500),
    contactInfo: optionalText(200),
    email: optionalText(200),
    fax: optionalText(50),
    rating: creditRatingSchema.default(CreditRating.None),
    ratingRemark: optionalText(2000),
    isConnectedTransaction: z.boolean().default(false),
    banks: z.array(bankSchema).max(20).default([]),
    contacts: z.array(contactSchema).max(50).default([]),
    registration: registrationSchema.nullable().optional(),
  })
  .strict();
export type CounterpartyInput = z.infer<typeof counterpartyInputSchema>;

/** An update names the version it was based on; a stale one is refused with 409. */
export const counterpartyUpdateSchema = counterpartyInputSchema.extend({ version: z.number().int().min(1).optional() }).strict();

const bankOut = z.object({ name: z.string(), account: z.string(), accountName: z.string() });
const contactOut = z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable(), title: z.string().nullable() });
const registrationOut = z.object(Object.fromEntries(Object.keys(registrationSchema.shape).map((key) => [key, z.string().nullable()])));

export const counterpartySchema = z.object({
  id: idSchema,
  type: partyTypeSchema,
  subtype: partySubtypeSchema,
  name: z.string(),
  keyword: z.string().nullable(),
  idNumber: z.string().nullable(),
  address: z.string().nullable(),
  contactInfo: z.string().nullable(),
  email: z.string().nullable(),
  fax: z.string().nullable(),
  rating: creditRatingSchema,
  ratingRemark: z.string().nullable(),
  isConnectedTransaction: z.boolean(),
  banks: z.array(bankOut),
  contacts: z.array(contactOut),
  registration: registrationOut.nullable(),
  updaterName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});
export type Counterparty = z.infer<typeof counterpartySchema>;

/** A list row (spec 3, "List columns"); the cooperation columns are filled for outer parties. */
export const counterpartyListRowSchema = z.object({
  id: idSchema,
  type: partyTypeSchema,
  subtype: partySubtypeSchema,
  name: z.string(),
  idNumber: z.string().nullable(),
  address: z.string().nullable(),
  bank: z.string().nullable(),
  account: z.string().nullable(),
  updaterName: z.string().nullable(),
  updateTime: z.string(),
  rating: creditRatingSchema,
  /** Contracts with this party that the viewer may see. */
  cooperationCount: z.number().int(),
  /** Their total amount, one entry per currency unit. */
  totalAmount: z.array(moneySchema),
  /** Average share of the full score over the party's scored contracts (0–100, one decimal), null if none. */
  averageScore: z.number().nullable(),
  riskCount: z.number().int(),
});

export const counterpartyListQuerySchema = z
  .object({
    type: z.coerce.number().pipe(partyTypeSchema),
    q: trimmed(100).optional(),
    rating: z.coerce.number().pipe(creditRatingSchema).optional(),
    pageNum,
    pageSize: pageSizeParam(20),
  })
  .strict();

/** The party picker's search result (spec 3, "Counterpart search result"). */
export const counterpartSearchItemSchema = z.object({
  id: idSchema,
  name: z.string(),
  fieldDetailMap: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  bankItemList: z.array(bankOut),
  contactItemList: z.array(contactOut),
});

/** One contract of the cooperation with a party: the detail lists them to open or score. */
export const cooperationContractSchema = z.object({
  id: idSchema,
  name: z.string(),
  contractNumber: z.string().nullable(),
  amount: moneySchema.nullable(),
  /** The contract's score as a share of the full score (0–100, one decimal), null until scored. */
  score: z.number().nullable(),
  updateTime: z.string(),
});

/** How many of the detail's cooperation contracts are listed (the newest). */
export const cooperationContractsShown = 50;

export const externalDetailSchema = counterpartySchema.extend({
  /** 'organization' or 'naturalPerson' (spec 3, "External party detail"). */
  subType: z.enum(['organization', 'naturalPerson']),
  riskCount: z.number().int(),
  refreshTime: z.string().nullable(),
  /** The list's cooperation columns, over the contracts the viewer may see. */
  cooperationCount: z.number().int(),
  totalAmount: z.array(moneySchema),
  averageScore: z.number().nullable(),
  /** The newest of those contracts (at most cooperationContractsShown). */
  cooperationContracts: z.array(cooperationContractSchema),
});

export const riskAlertSchema = z.object({
  counterpartyID: idSchema,
  riskInfo: z.object({ companyName: z.string(), riskCount: z.number().int(), dimensionName: z.string() }),
});

/** One risk the credit platform reported for a party. */
export const riskRecordSchema = z.object({ id: idSchema, dimensionName: z.string(), description: z.string(), occurredOn: isoDateSchema });

/** The credit-risk preview of a contract (spec 2, the ledger's credit-risk dialog): its outer party with its risks. */
export const contractCreditRiskSchema = z.object({
  contractId: idSchema,
  contractName: z.string(),
  /** Empty when the contract names no outer party. */
  list: z.array(
    z.object({
      counterpartyID: idSchema,
      name: z.string(),
      idNumber: z.string().nullable(),
      rating: creditRatingSchema,
      riskCount: z.number().int(),
      /** Newest first, at most 200. */
      risks: z.array(riskRecordSchema),
    }),
  ),
});
export type ContractCreditRisk = z.infer<typeof contractCreditRiskSchema>;

export const monitoringResultSchema = z.object({ id: idSchema, dimensionName: z.string(), info: z.string(), updateTime: z.string() });

export const counterpartiesEndpoints = {
  counterpartSearch: endpoint({
    method: 'GET', path: `${apiPrefix}/counterpart/list`, auth: true,
    query: z.object({ abbr: trimmed(100).default(''), type: z.coerce.number().pipe(partyTypeSchema) }).strict(),
    body: none,
    response: z.object({ list: z.array(counterpartSearchItemSchema) }),
  }),
  /** Defined here: the external detail, refreshed from the credit platform when refresh=true. */
  counterpartExternalDetail: endpoint({
    method: 'GET', path: `${apiPrefix}/counterpart/:id/external_detail`, auth: true, params: idParams,
    query: z.object({ refresh: booleanParam.optional() }).strict(), body: none,
    response: externalDetailSchema,
  }),
  counterpartRiskAlert: endpoint({
    method: 'GET', path: `${apiPrefix}/counterpart/risk_alert`, auth: true, query: none, body: none,
    response: z.object({ list: z.array(riskAlertSchema) }),
  }),
  /** Defined here: the monitoring results of a party. */
  counterpartMonitoring: endpoint({
    method: 'GET', path: `${apiPrefix}/counterpart/:id/monitoring`, auth: true, params: idParams, query: none, body: none,
    response: z.object({ list: z.array(monitoringResultSchema) }),
  }),
  /** Defined here: the URL the monitoring table's 'view' action opens in a new window. */
  counterpartMonitoringUrl: endpoint({
    method: 'GET', path: `${apiPrefix}/counterpart/:id/monitoring_url`, auth: true, params: idParams, query: none, body: none,
    response: z.object({ url: z.string() }),
  }),
  /** Defined here: the credit-risk preview of a visible contract's counterparty. */
  contractCreditRisk: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/:id/credit_risk`, auth: true, params: idParams, query: none, body: none,
    response: contractCreditRiskSchema,
  }),
  /** Defined here: inner (type=1) or outer (type=2) counterparties with the list columns of spec 3. */
  counterpartyList: endpoint({
    method: 'GET', path: `${apiPrefix}/counterparties`, auth: true, query: counterpartyListQuerySchema, body: none,
    response: pageSchema(counterpartyListRowSchema),
  }),
  counterpartyCreate: endpoint({
    method: 'POST', path: `${apiPrefix}/counterparties`, auth: true, query: none, body: counterpartyInputSchema,
    response: counterpartySchema,
  }),
  counterpartyGet: endpoint({
    method: 'GET', path: `${apiPrefix}/counterparties/:id`, auth: true, params: idParams, query: none, body: none,
    response: counterpartySchema,
  }),
  counterpartyUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/counterparties/:id`, auth: true, params: idParams, query: none, body: counterpartyUpdateSchema,
    response: counterpartySchema,
  }),
} as const satisfies Record<string, Endpoint>;
