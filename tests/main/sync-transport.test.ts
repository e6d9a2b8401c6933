import { describe, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type SyncFeedStreamQuery } from '../../src-shared/api/sync';
import { toAppError } from '../../src-shared/errors';
import { packPullResponse, type PackedPullResponse } from '../../src-shared/sync/feed-codec';
import { createContractServerClient, type ContractServerClient, type FeedStream } from '../../src-main/core/contract-server/client';
import { contractServerTransport } from '../../src-main/core/sync/transport';

// The transport's use of the feed's stream, over a fake server: the engine's "page after C" comes
// from the open stream while C is where it has reached, any other cursor opens a new stream, and
// a stream that ends early is followed once by a new one.

const page = (cursor: string, hasMore = true): PackedPullResponse => packPullResponse({ changes: [], cursor, hasMore, remaining: hasMore ? 1 : 0 });

/** A server whose streams hand out the pages queued for the cursor they start from. */
function fakeServer(pagesFrom: Record<string, (PackedPullResponse | 'end')[]>) {
  const opened: { query: SyncFeedStreamQuery; cancelled: boolean; finished: boolean }[] = [];
  const client = {
    async openFeedStream(query: SyncFeedStreamQuery): Promise<FeedStream> {
      const record = { query, cancelled: false, finished: false };
      opened.push(record);
      const pages = [...(pagesFrom[query.cursor] ?? [])];
      return {
        next: async () => {
          if (record.cancelled) return null;
          const next = pages.shift();
          return next === undefined || next === 'end' ? null : next;
        },
        cancel: () => void (record.cancelled = true),
        finish: () => void (record.finished = true),
      };
    },
  } as unknown as ContractServerClient;
  return { opened, transport: contractServerTransport({ client, token: () => 't' }) };
}

const cursorOf = (answer: unknown) => (answer as { cursor: string }).cursor;

describe('the sync transport over the feed stream', () => {
  it('reads the pages the engine asks for in turn from one stream, the first page small, and finishes it after the last', async () => {
    const { opened, transport } = fakeServer({ '0': [page('1'), page('2'), page('3', false)] });
    expect(cursorOf(await transport.pull('0'))).toBe('1');
    expect(cursorOf(await transport.pull('1'))).toBe('2');
    expect(cursorOf(await transport.pull('2'))).toBe('3');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ query: { cursor: '0', firstLimit: 500, limit: 5000 }, finished: true, cancelled: false });
  });

  it('opens a new stream for any other cursor, dropping the open one, and from a cursor that is not the first without a small first page', async () => {
    const { opened, transport } = fakeServer({ '0': [page('1'), page('2')], '7': [page('8', false)] });
    await transport.pull('0');
    expect(cursorOf(await transport.pull('7'))).toBe('8');
    expect(opened.map((stream) => [stream.query.cursor, stream.query.firstLimit, stream.cancelled])).toEqual([
      ['0', 500, true],
      ['7', undefined, false],
    ]);
  });

  it('follows a stream that ends before the feed with one new stream from where it stopped, and fails after two', async () => {
    const { opened, transport } = fakeServer({ '0': [page('1'), 'end'], '1': [page('2', false)] });
    await transport.pull('0');
    expect(cursorOf(await transport.pull('1'))).toBe('2');
    expect(opened.map((stream) => stream.query.cursor)).toEqual(['0', '1']);

    const twice = fakeServer({ '0': ['end'] });
    const failure = await twice.transport.pull('0').catch((cause: unknown) => toAppError(cause));
    expect(failure).toMatchObject({ code: 'server_unreachable' });
    expect(twice.opened).toHaveLength(2);
  });

  it('drops the open stream when the engine releases it', async () => {
    const { opened, transport } = fakeServer({ '0': [page('1'), page('2')], '1': [page('2', false)] });
    await transport.pull('0');
    transport.release?.();
    expect(opened[0]!.cancelled).toBe(true);
    await transport.pull('1');
    expect(opened).toHaveLength(2);
  });

  it('a pull the engine dropped does not take the pages of the stream that replaced its own', async () => {
    let release: () => void = () => undefined;
    const stalled: FeedStream = {
      next: () => new Promise((resolve) => (release = () => resolve(null))),
      cancel: () => undefined,
      finish: () => undefined,
    };
    const fresh = [page('8'), page('9', false)];
    let calls = 0;
    const client = {
      openFeedStream: async (): Promise<FeedStream> => {
        calls += 1;
        if (calls === 1) return stalled;
        return { next: async () => fresh.shift() ?? null, cancel: () => undefined, finish: () => undefined };
      },
    } as unknown as ContractServerClient;
    const transport = contractServerTransport({ client, token: () => 't' });
    const dropped = transport.pull('0').catch((cause: unknown) => toAppError(cause));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cursorOf(await transport.pull('7'))).toBe('8');
    release();
    expect(await dropped).toMatchObject({ code: 'server_unreachable' });
    expect(cursorOf(await transport.pull('8'))).toBe('9');
  });
});

describe("the client's reading of the feed stream", () => {
  /** A client whose fetch answers with these chunks of body. */
  const streaming = (chunks: string[], status = 200) =>
    createContractServerClient('http://server.test', {
      fetch: (async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
              controller.close();
            },
          }),
          { status },
        )) as typeof fetch,
    });
  const query = { cursor: '0', limit: 10, maxBytes: 1024 * 1024, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };

  it('reads pages however the lines fall into chunks, and a line cut short ends the stream', async () => {
    const [a, b, c] = [page('1'), page('2'), page('3')].map((p) => JSON.stringify(p));
    const stream = await streaming([a!.slice(0, 10), `${a!.slice(10)}\n${b}`, `\n${c!.slice(0, 5)}`]).openFeedStream(query, 't');
    expect((await stream.next())?.cursor).toBe('1');
    expect((await stream.next())?.cursor).toBe('2');
    expect(await stream.next()).toBeNull();
  });

  it('refuses a line that is not a packed page, and hears a refusal of the first page', async () => {
    const stream = await streaming([`${JSON.stringify(page('1'))}\n{"values":[]}\n`]).openFeedStream(query, 't');
    expect((await stream.next())?.cursor).toBe('1');
    expect(await stream.next().catch((cause: unknown) => toAppError(cause))).toMatchObject({ code: 'server_error' });
    const refused = streaming([JSON.stringify({ code: 'must_resync', message: 'resync', data: null })], 410).openFeedStream(query, 't');
    expect(await refused.catch((cause: unknown) => toAppError(cause))).toMatchObject({ code: 'must_resync' });
  });
});
