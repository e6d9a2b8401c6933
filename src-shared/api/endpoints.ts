import { z } from 'zod';
import { contractSchema, contractStatisticsSchema, contractStatusSchema } from '../domain/contract';
import { userSchema } from '../domain/user';
import { pageSchema } from './envelope';
import { counterpartiesEndpoints } from './counterparties';
import { directoryEndpoints } from './directory';
import { offlineLockDaysSchema, organisationEndpoints } from './organisation';
import { deviceDescriptionSchema, devicesEndpoints } from './devices';
import { auditEndpoints } from './audit';
import { intellectualPropertyEndpoints } from './intellectual-property';
import { lawFirmsEndpoints } from './law-firms';
import { projectsEndpoints } from './projects';
import { scoringEndpoints } from './scoring';
import { ledgerEndpoints } from './ledger';
import { apiPrefix, endpoint, none, pageNum, trimmed, type Endpoint } from './endpoint';
import { contractFormsEndpoints } from './contract-forms';
import { numberingEndpoints } from './numbering';
import { performanceEndpoints } from './performance';
import { packedPullResponseSchema } from '../sync/feed-codec';
import { syncImageAnswerSchema, syncImageQuerySchema, syncPullQuerySchema, syncPullResponseSchema, syncPushRequestSchema, syncPushResponseSchema } from './sync';

// The REST contract of the contract server, written once: the server validates requests and the
// main core validates responses against the same schemas. An endpoint without schemas does not
// type-check (see `Endpoint`).

export const loginRequestSchema = z
  .object({
    username: z.string().trim().min(1, 'please enter the user name').max(64),
    password: z.string().min(1, 'please enter the password').max(256),
    /** The signing-in installation; clients without one (scripts, tests) get sessions of no device. */
    device: deviceDescriptionSchema.optional(),
  })
  .strict();

export const tokenPairSchema = z.object({
  token: z.string(),
  refreshToken: z.string(),
  /** ISO timestamp after which `token` is refused. */
  expiresAt: z.string(),
});
export type TokenPair = z.infer<typeof tokenPairSchema>;

/**
 * What sign-in and refresh answer: the tokens, and the offline lock that applies to the device
 * (the organisation's days, or its device's shorter ones), which the core keeps (issue 32).
 */
export const sessionGrantSchema = tokenPairSchema.extend({ offlineLockDays: offlineLockDaysSchema });
export type SessionGrant = z.infer<typeof sessionGrantSchema>;

export const loginResponseSchema = sessionGrantSchema.extend({ user: userSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const contractListQuerySchema = z
  .object({
    pageNum,
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
    status: z.coerce.number().pipe(contractStatusSchema).optional(),
    q: trimmed(100).optional(),
  })
  .strict();
export type ContractListQuery = z.infer<typeof contractListQuerySchema>;

/** Sign-in, the contract list slice and sync. */
const coreEndpoints = {
  health: endpoint({
    method: 'GET', path: `${apiPrefix}/health`, auth: false, query: none, body: none,
    response: z.object({ status: z.literal('up'), protocolVersion: z.number().int(), schemaVersion: z.number().int() }),
  }),
  login: endpoint({
    method: 'POST', path: `${apiPrefix}/auth/login`, auth: false, query: none, body: loginRequestSchema,
    response: loginResponseSchema,
  }),
  refresh: endpoint({
    method: 'POST', path: `${apiPrefix}/auth/refresh`, auth: false, query: none,
    body: z.object({ refreshToken: z.string().min(1).max(512) }).strict(),
    response: sessionGrantSchema,
  }),
  logout: endpoint({
    method: 'POST', path: `${apiPrefix}/auth/logout`, auth: true, query: none, body: none,
    response: z.object({ signedOut: z.literal(true) }),
  }),
  me: endpoint({
    method: 'GET', path: `${apiPrefix}/auth/me`, auth: true, query: none, body: none, response: userSchema,
  }),
  contractList: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts`, auth: true, query: contractListQuerySchema, body: none,
    response: pageSchema(contractSchema),
  }),
  contractStatistics: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/statistics`, auth: true, query: none, body: none,
    response: contractStatisticsSchema,
  }),
  syncPull: endpoint({
    method: 'GET', path: `${apiPrefix}/sync/pull`, auth: true, query: syncPullQuerySchema, body: none,
    response: syncPullResponseSchema,
  }),
  /** The same feed as syncPull, packed (src-shared/sync/feed-codec.ts): what the desktop pulls. */
  syncFeed: endpoint({
    method: 'GET', path: `${apiPrefix}/sync/feed`, auth: true, query: syncPullQuerySchema, body: none,
    response: packedPullResponseSchema,
  }),
  /** The user's prepared replica image for these versions, if one answers (src-shared/api/sync.ts). */
  syncImage: endpoint({
    method: 'GET', path: `${apiPrefix}/sync/image`, auth: true, query: syncImageQuerySchema, body: none,
    response: syncImageAnswerSchema,
  }),
  syncPush: endpoint({
    method: 'POST', path: `${apiPrefix}/sync/push`, auth: true, query: none, body: syncPushRequestSchema,
    response: syncPushResponseSchema,
  }),
} as const satisfies Record<string, Endpoint>;

/** Every endpoint of the contract server; each feature adds its own map here. */
export const endpoints = {
  ...coreEndpoints,
  ...numberingEndpoints,
  ...contractFormsEndpoints,
  ...performanceEndpoints,
  ...counterpartiesEndpoints,
  ...lawFirmsEndpoints,
  ...projectsEndpoints,
  ...scoringEndpoints,
  ...intellectualPropertyEndpoints,
  ...ledgerEndpoints,
  ...directoryEndpoints,
  ...organisationEndpoints,
  ...devicesEndpoints,
  ...auditEndpoints,
} as const satisfies Record<string, Endpoint>;

export { apiPrefix };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type EndpointResponse<N extends EndpointName> = z.infer<Endpoints[N]['response']>;
export type EndpointQuery<N extends EndpointName> = z.input<Endpoints[N]['query']>;
export type EndpointBody<N extends EndpointName> = z.input<Endpoints[N]['body']>;
