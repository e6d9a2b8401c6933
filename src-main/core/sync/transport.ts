import { syncProtocolVersion, syncSchemaVersion } from '../../../src-shared/api/sync';
import { unpackPullResponse } from '../../../src-shared/sync/feed-codec';
import type { ContractServerClient } from '../contract-server/client';
import type { SyncTransport } from './sync-engine';

/** What the transport needs of a session: its server, and the access token read at send time. */
export interface TransportSession {
  readonly client: ContractServerClient;
  token(): string;
}

/** A packed page is about half of this, and a sixth of that once compressed: about a second at 2 Mbit/s. */
const defaultPageBytes = 4 * 1024 * 1024;

/** A first sync's first page is small, so the ledger is usable after one short answer. */
const firstPageSize = 500;

/**
 * The sync transport over the contract server's REST endpoints. The token is read on every send
 * (never stored with a mutation), so a retry after a refresh carries the new one. Pages of up to
 * 5,000 changes: on a link of 150 ms a round trip per page adds up, while a page ended by its
 * size in bytes still holds little in memory, and a page a cut interrupts costs about a second.
 */
export function contractServerTransport(session: TransportSession, pageSize = 5000, pageBytes = defaultPageBytes): SyncTransport {
  return {
    push: (body) => session.client.call('syncPush', { token: session.token(), body }),
    // The packed feed, unpacked here; the engine checks every change against the sync schemas.
    pull: async (cursor) =>
      unpackPullResponse(
        await session.client.call('syncFeed', {
          token: session.token(),
          query: { cursor, limit: cursor === '0' ? firstPageSize : pageSize, maxBytes: pageBytes, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion },
        }),
      ),
  };
}
