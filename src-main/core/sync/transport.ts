import { preparedFeedPages, syncProtocolVersion, syncSchemaVersion } from '../../../src-shared/api/sync';
import { AppFailure } from '../../../src-shared/errors';
import { unpackPullResponse } from '../../../src-shared/sync/feed-codec';
import type { ContractServerClient, FeedStream } from '../contract-server/client';
import { discardImage, fetchImage, type ImageFiles } from './image-download';
import type { ImageTransport, SyncTransport } from './sync-engine';

/** What the transport needs of a session: its server, and the access token read at send time. */
export interface TransportSession {
  readonly client: ContractServerClient;
  token(): string;
}

/**
 * Pages of up to 5,000 changes or about 4 MB of JSON (a packed page is about half of that, and a
 * sixth of that once compressed: about a second at 2 Mbit/s), the first of a first sync 500
 * changes, so the ledger is usable after one short answer. The shape the server prepares first
 * syncs in, so a new replica gets them.
 */
const { limit: defaultPageSize, maxBytes: defaultPageBytes, firstLimit: firstPageSize } = preparedFeedPages;

/**
 * The sync transport over the contract server's REST endpoints. The token is read on every send
 * (never stored with a mutation), so a retry after a refresh carries the new one. Pages of up to
 * 5,000 changes: a page ended by its size in bytes still holds little in memory, and a page a cut
 * interrupts costs about a second on a poor link.
 *
 * Pulls read the feed's stream (src-server/sync/feed-stream.ts): the engine asks for the page after
 * the cursor it holds, and while that is the cursor the open stream has reached, the stream's next
 * page is it, already on its way. Any other cursor (a first pull, a retry after a failure, a
 * resync) opens a new stream from there.
 */
export function contractServerTransport(session: TransportSession, pageSize: number = defaultPageSize, pageBytes: number = defaultPageBytes, imageFiles: ImageFiles | null = null): SyncTransport {
  /** The open stream, and the cursor its next page continues from. */
  let open: { from: string; feed: FeedStream } | null = null;
  const close = (stream: typeof open) => {
    stream?.feed.cancel();
    if (open === stream) open = null;
  };
  const openFrom = async (cursor: string) => ({
    from: cursor,
    feed: await session.client.openFeedStream(
      {
        cursor,
        limit: pageSize,
        firstLimit: cursor === '0' ? firstPageSize : undefined,
        maxBytes: pageBytes,
        protocolVersion: syncProtocolVersion,
        schemaVersion: syncSchemaVersion,
      },
      session.token(),
    ),
  });
  return {
    push: (body) => session.client.call('syncPush', { token: session.token(), body }),
    async pull(cursor) {
      if (open?.from !== cursor) close(open);
      // A stream that ends before the feed does (the server stopped it) is followed by one new one.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const stream = open ?? (open = await openFrom(cursor));
        let page;
        try {
          page = await stream.feed.next();
        } catch (cause) {
          close(stream);
          throw cause;
        }
        if (page === null) {
          // A pull the engine dropped (a newer one replaced its stream) must not take the newer one's pages.
          const replaced = open !== stream;
          close(stream);
          if (replaced) throw new AppFailure('server_unreachable');
          continue;
        }
        stream.from = page.cursor;
        if (!page.hasMore) {
          stream.feed.finish();
          if (open === stream) open = null;
        }
        return unpackPullResponse(page);
      }
      throw new AppFailure('server_unreachable', 'The contract server ended the feed before its end, twice.');
    },
    release: () => close(open),
    ...(imageFiles && { image: imageTransport(session, Math.min(firstPageSize, pageSize), pageBytes, imageFiles) }),
  };
}

/** A wait this long for a replica image's next bytes counts as a cut: the download resumes in the next round. */
const imageStallMs = 15_000;

/** A first sync from the server's replica image (image-download.ts), its files beside the replica. */
function imageTransport(session: TransportSession, firstLimit: number, pageBytes: number, files: ImageFiles): ImageTransport {
  const versions = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };
  return {
    firstPage: async () =>
      unpackPullResponse(await session.client.call('syncFeed', { token: session.token(), query: { cursor: '0', limit: firstLimit, maxBytes: pageBytes, ...versions } })),
    offered: async (replicaVersion) => (await session.client.call('syncImage', { token: session.token(), query: { ...versions, replicaVersion } })).image,
    async fetch(image, onProgress) {
      await fetchImage(image, files, { client: session.client, token: () => session.token(), stallMs: imageStallMs, onProgress });
      return files.unpacked;
    },
    discard: () => discardImage(files),
  };
}
