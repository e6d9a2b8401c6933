import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { DelayLine, linkDirection, type LinkDirection, type LinkShape } from './link-shape';

// A loopback TCP proxy in front of the contract server for fault tests and the sync bench: it
// passes connections through, refuses them (the server looks down), delays every chunk, drops a
// share of new connections, or cuts connections after some bytes (a half-sent request or answer).
// With a link shape it plays a slow, distant, flaky network (tests/main/link-shape.ts).

export interface ProxyFaults {
  /** New connections are closed at once. */
  refuse: boolean;
  /** Share (0..1) of new connections closed at once. */
  dropRate: number;
  /** Milliseconds added before forwarding each chunk. */
  delayMs: number;
  /** Close a connection once this many bytes went through it (either way); null: never. */
  cutAfterBytes: number | null;
  /** Bandwidth, round trip and cuts of a real link; null: loopback as it is. */
  link: LinkShape | null;
  /** Every byte either way is swallowed without a word (a firewall that drops packets): calls hang. */
  silent: boolean;
  /** Requests reach the server, its answers are swallowed: the server does the work, the client never hears. */
  answersLost?: boolean;
}

export const noFaults: ProxyFaults = { refuse: false, dropRate: 0, delayMs: 0, cutAfterBytes: null, link: null, silent: false };

/** Where a doomed connection of a shaped link is cut: within the first answer it carries. */
const maxCutBytes = 32 * 1024;

export interface FaultProxy {
  readonly url: string;
  readonly port: number;
  faults: ProxyFaults;
  /** Sends new connections to another target port (a restarted server). */
  retarget(port: number): void;
  /** Cuts every open connection now. */
  cutAll(): void;
  /** Bytes passed so far each way: requests up, answers down. */
  traffic(): { up: number; down: number };
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, random: () => number = Math.random, listenPort = 0): Promise<FaultProxy> {
  let target = targetPort;
  const open = new Set<Socket>();
  const moved = { up: 0, down: 0 };
  // The two directions of the shaped link, shared by every connection, made anew when the shape changes.
  let shaped: { shape: LinkShape; up: LinkDirection; down: LinkDirection } | null = null;
  const directionsOf = (shape: LinkShape) => {
    if (shaped?.shape !== shape) shaped = { shape, up: linkDirection(shape), down: linkDirection(shape) };
    return shaped;
  };
  const proxy: Partial<FaultProxy> & { faults: ProxyFaults } = { faults: { ...noFaults } };
  const server: Server = createServer((client) => {
    const faults = proxy.faults;
    if (faults.refuse || random() < faults.dropRate) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    open.add(client);
    open.add(upstream);
    let bytes = 0;
    let answered = 0;
    const link = faults.link;
    const cutAt = link && random() < link.cutShare ? 1 + Math.floor(random() * maxCutBytes) : null;
    const lines: DelayLine[] = [];
    const cut = () => {
      for (const line of lines) line.clear();
      client.destroy();
      upstream.destroy();
    };
    const forward = (from: Socket, to: Socket, way: 'up' | 'down') => {
      /** Passes the chunk on; false when `to` holds more than it wants. */
      const send = (chunk: Buffer): boolean => {
        bytes += chunk.length;
        moved[way] += chunk.length;
        if (way === 'down') answered += chunk.length;
        const limit = proxy.faults.cutAfterBytes;
        const over = Math.max(limit !== null ? bytes - limit : 0, cutAt !== null ? answered - cutAt : 0);
        if (over > 0) {
          to.write(chunk.subarray(0, Math.max(0, chunk.length - over)));
          cut();
          return true;
        }
        return to.destroyed || to.write(chunk);
      };
      // The sender waits while the line is full, a delayed chunk is held, or the reader has not
      // taken what it was given: like TCP, a reader slower than the server (a core writing a
      // first sync) holds the server back instead of having the rest pile up in here.
      const held = { line: false, delay: false, reader: false };
      const flow = () => (held.line || held.delay || held.reader ? from.pause() : from.resume());
      const deliver = (chunk: Buffer) => {
        if (send(chunk) || held.reader) return;
        held.reader = true;
        flow();
        to.once('drain', () => {
          held.reader = false;
          flow();
        });
      };
      const line = new DelayLine(deliver, (full) => {
        held.line = full;
        flow();
      });
      lines.push(line);
      // A new connection's first bytes wait out the TCP handshake's round trip.
      let handshake = link && way === 'up' ? link.rttMs : 0;
      from.on('data', (chunk: Buffer) => {
        if (proxy.faults.silent || (way === 'down' && proxy.faults.answersLost)) return;
        const shape = proxy.faults.link;
        if (shape) {
          line.push(directionsOf(shape)[way].arrival(chunk.length) + handshake, chunk);
          handshake = 0;
        }
        else if (proxy.faults.delayMs > 0) {
          held.delay = true;
          flow();
          setTimeout(() => {
            held.delay = false;
            deliver(chunk);
            flow();
          }, proxy.faults.delayMs);
        } else deliver(chunk);
      });
    };
    forward(client, upstream, 'up');
    forward(upstream, client, 'down');
    for (const [socket, line] of [[client, lines[0]!], [upstream, lines[1]!]] as const) {
      socket.on('error', cut);
      // What the closing side sent before it closed still crosses the link first.
      socket.on('close', () => {
        open.delete(socket);
        line.whenDrained(cut);
      });
    }
    upstream.connect(target, '127.0.0.1');
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    port,
    retarget: (next: number) => {
      target = next;
    },
    traffic: () => ({ ...moved }),
    cutAll: () => {
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  }) as FaultProxy;
}
