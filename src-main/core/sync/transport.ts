import { syncProtocolVersion, syncSchemaVersion } from '../../../src-shared/api/sync';
import type { ContractServerClient } from '../contract-server/client';
import type { SyncTransport } from './sync-engine';

/** What the transport needs of a session: its server, and the access token read at send time. */
export interface TransportSession {
  readonly client: ContractServerClient;
  token(): string;
}

/**
 * The sync transport over the contract server's REST endpoints. The token is read on every send
 * (never stored with a mutation), so a retry after a refresh carries the new one. Pages are the
 * server's largest by default: each page also counts what remains, so fewer, larger pages keep a
 * first sync of contracts and their tasks (a quarter million changes) within half a minute.
 */
export function contractServerTransport(session: TransportSession, pageSize = 5000): SyncTransport {
  return {
    push: (body) => session.client.call('syncPush', { token: session.token(), body }),
    pull: (cursor) =>
      session.client.call('syncPull', {
        token: session.token(),
        query: { cursor, limit: pageSize, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion },
      }),
  };
}
