import { randomUUID } from 'node:crypto';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import type { Headers } from '../http/write-safety';
import { appendAuditEvents, type AuditEntry } from './chain';
import { changedFields, restEntity, rowSnapshot, sentFields } from './record';

// The audit of REST writes, hooked once in the route layer (src-server/http/routes.ts) around
// every write endpoint of the map: the write and its event run in one transaction.

/** Writes of the map that record no event here, and why. */
export const notAudited: Readonly<Partial<Record<EndpointName, string>>> = {
  syncPush: 'each pushed mutation is recorded as its own event (src-server/sync/push.ts)',
  login: 'a sign-in changes no data of the organisation; no user is signed in to record it under',
  refresh: 'renews the tokens of a session; no data of the organisation changes',
  ledgerSearch: 'a search sent as POST for its long criteria: it writes nothing',
};

/** The signed-in writes that record an audit event: every POST, PUT and DELETE of the map but those above. */
export function isAuditedWrite(name: EndpointName): boolean {
  const endpoint = endpoints[name];
  return endpoint.auth && endpoint.method !== 'GET' && !(name in notAudited);
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim().slice(0, 200) || undefined;
}

/**
 * The device a write came from: the server's id of the session's device (the devices screens' id),
 * else what the client named (its header, or its sync client id), else its session.
 */
export function auditDevice(user: Pick<SessionUser, 'deviceId' | 'sessionId'>, named: string | undefined): string {
  return user.deviceId ?? named ?? `session:${user.sessionId}`;
}

export interface RestWrite<T> {
  name: EndpointName;
  user: SessionUser;
  params: unknown;
  body: unknown;
  headers: Headers;
  at: Date;
  run: (tx: ServerDb) => Promise<T>;
}

const idIn = (value: unknown): string | null => {
  const id = value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
};

/** The event of a signed-in REST write: the route layer's below, or a file route's outside the map (src-server/files). */
export function restAuditEntry(user: SessionUser, headers: Headers, at: Date, write: Pick<AuditEntry, 'entity' | 'entityId' | 'action' | 'changes'>): AuditEntry {
  return {
    organisationId: user.organisationId,
    userId: user.id,
    userName: user.displayName,
    device: auditDevice(user, header(headers, 'x-client-id')),
    ...write,
    editedAt: null,
    appliedAt: at,
    mutationId: null,
    requestId: header(headers, 'idempotency-key') ?? header(headers, 'x-request-id') ?? randomUUID(),
  };
}

/** Runs the write on `tx` and appends its event in the same transaction. */
export async function auditedRestWrite<T>(tx: ServerDb, write: RestWrite<T>): Promise<T> {
  const { name, user, params, body, headers, at } = write;
  const { entity, table, idOf } = restEntity(endpoints[name].path);
  const named = idIn(params) ?? idOf?.(user) ?? null;
  const before = await rowSnapshot(tx, table, named);
  const data = await write.run(tx);
  const entityId = named ?? idIn(data);
  const changes = table ? changedFields(before, await rowSnapshot(tx, table, entityId)) : sentFields(body);
  await appendAuditEvents(tx, [restAuditEntry(user, headers, at, { entity, entityId, action: name, changes })]);
  return data;
}
