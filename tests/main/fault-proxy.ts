import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

// A loopback TCP proxy in front of the contract server for fault tests and the sync bench: it
// passes connections through, refuses them (the server looks down), delays every chunk, drops a
// share of new connections, or cuts connections after some bytes (a half-sent request or answer).

export interface ProxyFaults {
  /** New connections are closed at once. */
  refuse: boolean;
  /** Share (0..1) of new connections closed at once. */
  dropRate: number;
  /** Milliseconds added before forwarding each chunk. */
  delayMs: number;
  /** Close a connection once this many bytes went through it (either way); null: never. */
  cutAfterBytes: number | null;
}

export const noFaults: ProxyFaults = { refuse: false, dropRate: 0, delayMs: 0, cutAfterBytes: null };

export interface FaultProxy {
  readonly url: string;
  readonly port: number;
  faults: ProxyFaults;
  /** Sends new connections to another target port (a restarted server). */
  retarget(port: number): void;
  /** Cuts every open connection now. */
  cutAll(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, random: () => number = Math.random, listenPort = 0): Promise<FaultProxy> {
  let target = targetPort;
  const open = new Set<Socket>();
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
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        const send = () => {
          bytes += chunk.length;
          const limit = proxy.faults.cutAfterBytes;
          if (limit !== null && bytes > limit) {
            to.write(chunk.subarray(0, Math.max(0, chunk.length - (bytes - limit))));
            cut();
          } else if (!to.destroyed) to.write(chunk);
        };
        if (proxy.faults.delayMs > 0) {
          from.pause();
          setTimeout(() => {
            send();
            from.resume();
          }, proxy.faults.delayMs);
        } else send();
      });
    forward(client, upstream);
    forward(upstream, client);
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', () => {
        open.delete(socket);
        cut();
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
