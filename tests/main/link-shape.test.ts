import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { linkProfiles, TokenBucket } from './link-shape';

// The shaped link of the benches (issue 12), measured through the real proxy: a server that
// answers "n\n" with n bytes, a client that times the answer.

let server: Server;
let proxy: FaultProxy;

beforeAll(async () => {
  server = createServer((socket) => {
    let asked = '';
    socket.on('data', (chunk: Buffer) => {
      asked += chunk.toString();
      for (let end = asked.indexOf('\n'); end >= 0; end = asked.indexOf('\n')) {
        socket.write(Buffer.alloc(Number(asked.slice(0, end)), 120));
        asked = asked.slice(end + 1);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy = await startFaultProxy((server.address() as AddressInfo).port, () => 0.5);
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => server.close(resolve));
});

/** A connection through the proxy that asks for answers and says when each first and last byte came. */
async function connect() {
  const socket = new Socket();
  await new Promise<void>((resolve) => socket.connect(proxy.port, '127.0.0.1', resolve));
  let received = 0;
  let closed = false;
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('close', () => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => undefined);
  return {
    /** Asks for `bytes`; when the first and the last arrived (ms since asking), or null when the link cut it. */
    async ask(bytes: number): Promise<{ firstMs: number; lastMs: number } | null> {
      const start = performance.now();
      const until = received + bytes;
      let firstMs: number | null = null;
      socket.write(`${bytes}\n`);
      while (received < until && !closed) {
        await new Promise<void>((resolve) => waiters.push(resolve));
        firstMs ??= performance.now() - start;
      }
      return received >= until ? { firstMs: firstMs ?? 0, lastMs: performance.now() - start } : null;
    },
    close: () => socket.destroy(),
  };
}

describe('the shaped link', () => {
  it('delays each round trip by the RTT, the first one by the handshake too', async () => {
    proxy.faults = { ...proxy.faults, link: { bitsPerSecond: 100_000_000, rttMs: 100, cutShare: 0 } };
    const connection = await connect();
    const first = await connection.ask(10);
    const second = await connection.ask(10);
    connection.close();
    expect(first!.lastMs).toBeGreaterThanOrEqual(195);
    expect(first!.lastMs).toBeLessThan(260);
    expect(second!.lastMs).toBeGreaterThanOrEqual(97);
    expect(second!.lastMs).toBeLessThan(150);
  });

  it('passes bytes at the bandwidth, within 15 %', async () => {
    const bitsPerSecond = 8_000_000;
    proxy.faults = { ...proxy.faults, link: { bitsPerSecond, rttMs: 20, cutShare: 0 } };
    const connection = await connect();
    const bytes = 1_000_000;
    const answer = await connection.ask(bytes);
    connection.close();
    // The answer streams from its first byte to its last at the link's rate (less the burst the bucket saved up).
    const measured = (bytes * 8) / ((answer!.lastMs - answer!.firstMs) / 1000);
    expect(measured).toBeGreaterThan(bitsPerSecond * 0.85);
    expect(measured).toBeLessThan(bitsPerSecond * 1.15);
  });

  it('shares the bandwidth between connections, as one link does', async () => {
    const bitsPerSecond = 8_000_000;
    proxy.faults = { ...proxy.faults, link: { bitsPerSecond, rttMs: 10, cutShare: 0 } };
    const [a, b] = await Promise.all([connect(), connect()]);
    const start = performance.now();
    await Promise.all([a.ask(500_000), b.ask(500_000)]);
    const seconds = (performance.now() - start) / 1000;
    a.close();
    b.close();
    // Two connections together get the link's rate, not twice it (the lower bound allows for a busy machine).
    expect((1_000_000 * 8) / seconds).toBeLessThan(bitsPerSecond * 1.15);
    expect((1_000_000 * 8) / seconds).toBeGreaterThan(bitsPerSecond * 0.6);
  });

  it('cuts the doomed share of connections part-way through an answer', async () => {
    proxy.faults = { ...proxy.faults, link: { bitsPerSecond: 100_000_000, rttMs: 2, cutShare: 1 } };
    const doomed = await connect();
    expect(await doomed.ask(100_000)).toBeNull();
    proxy.faults = { ...proxy.faults, link: { bitsPerSecond: 100_000_000, rttMs: 2, cutShare: 0 } };
    const whole = await connect();
    expect(await whole.ask(100_000)).not.toBeNull();
    whole.close();
  });

  it('has the profiles of the issue: poor 2 Mbit/s, 150 ms, 1 % cut; office 20 Mbit/s, 50 ms', () => {
    expect(linkProfiles.poor).toEqual({ bitsPerSecond: 2_000_000, rttMs: 150, cutShare: 0.01 });
    expect(linkProfiles.office).toEqual({ bitsPerSecond: 20_000_000, rttMs: 50, cutShare: 0 });
  });
});

describe('the proxy with a reader that stops reading', () => {
  /** Asks for 64 MB, reads nothing for a while, and says how much the proxy passed on meanwhile. */
  async function passedToAStalledReader(): Promise<number> {
    const socket = new Socket();
    await new Promise<void>((resolve) => socket.connect(proxy.port, '127.0.0.1', resolve));
    socket.pause();
    const before = proxy.traffic().down;
    socket.write(`${64 * 1024 * 1024}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const passed = proxy.traffic().down - before;
    socket.destroy();
    return passed;
  }

  // As over TCP, the server is held back; the proxy keeps no pile of what the reader has not taken.
  it('holds the server back on a plain link', async () => {
    proxy.faults = { ...proxy.faults, link: null };
    expect(await passedToAStalledReader()).toBeLessThan(16 * 1024 * 1024);
  });

  it('holds the server back on a shaped link', async () => {
    proxy.faults = { ...proxy.faults, link: { bitsPerSecond: 1_000_000_000, rttMs: 1, cutShare: 0 } };
    expect(await passedToAStalledReader()).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('TokenBucket', () => {
  it('lets a burst through at once, then paces at the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(1, () => now); // 1 byte per ms
    now = 100_000;
    expect(bucket.take(16 * 1024)).toBe(100_000);
    expect(bucket.take(1000)).toBe(101_000);
    expect(bucket.take(1000)).toBe(102_000);
  });
});
