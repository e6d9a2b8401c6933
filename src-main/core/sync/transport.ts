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
 * (never stored with a mutation), so a retry after a refresh carries the new one. Pages of 2,000:
 * the server counts what remains once per pull, so more pages cost little time, and a smaller
 * page holds less in memory while it is parsed (contract rows carry their form values).
 */
export function contractServerTransport(session: TransportSession, pageSize = 2000): SyncTransport {
  return {
    push: (body) => session.client.call('syncPush', { token: session.token(), body }),
    pull: (cursor) =>
      session.client.call('syncPull', {
        token: session.token(),
        query: { cursor, limit: pageSize, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion },
      }),
  };
}
