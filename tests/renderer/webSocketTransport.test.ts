import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientFrame, HostFrame } from '../../src-shared/ipc/wire';
import type { ConnectionState } from '../../src-renderer/bridge/transport';
import { connectionLostResult, createWebSocketTransport, type SocketLike } from '../../src-renderer/bridge/webSocketTransport';

/** A socket the test opens, closes and answers by hand. */
class FakeSocket {
  readyState = 0;
  sent: ClientFrame[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;

  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  open() {
    this.readyState = 1;
    this.onopen?.call(this as never, new Event('open'));
  }
  drop() {
    this.readyState = 3;
    this.onclose?.call(this as never, new Event('close') as CloseEvent);
  }
  push(frame: HostFrame | string) {
    const data = typeof frame === 'string' ? frame : JSON.stringify(frame);
    this.onmessage?.call(this as never, new MessageEvent('message', { data }));
  }
}

function setUp() {
  const sockets: FakeSocket[] = [];
  const states: ConnectionState[] = [];
  const transport = createWebSocketTransport('ws://host/ipc', {
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as SocketLike;
    },
    queueTimeoutMs: 5_000,
    reconnectDelay: (attempt) => 100 * (attempt + 1),
  });
  transport.onConnectionChange((state) => states.push(state));
  const latest = () => sockets[sockets.length - 1]!;
  return { transport, bridge: transport.bridge, sockets, states, latest };
}

const ok = (id: number, data: unknown): HostFrame => ({ type: 'result', id, result: { ok: true, data } });

describe('WebSocket transport', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('queues invokes made while connecting and sends them in order once open', async () => {
    const { bridge, latest, states } = setUp();
    const first = bridge.invoke('app.info', {});
    const second = bridge.invoke('settings.get', {});
    expect(latest().sent).toEqual([]);

    latest().open();
    expect(states).toEqual(['open']);
    expect(latest().sent.map((f) => f.channel)).toEqual(['app.info', 'settings.get']);
    const [a, b] = latest().sent;
    latest().push(ok(b!.id, { serverUrl: null, language: null }));
    latest().push(ok(a!.id, { version: '1', host: 'web', systemLocale: 'en' }));

    await expect(first).resolves.toEqual({ ok: true, data: { version: '1', host: 'web', systemLocale: 'en' } });
    await expect(second).resolves.toEqual({ ok: true, data: { serverUrl: null, language: null } });
  });

  it('passes error values through unchanged', async () => {
    const { bridge, latest } = setUp();
    latest().open();
    const answer = bridge.invoke('session.signIn', { serverUrl: 'http://x', username: 'a', password: 'b' });
    const error = { code: 'invalid_credentials', message: 'Wrong user name or password.' } as const;
    latest().push({ type: 'result', id: latest().sent[0]!.id, result: { ok: false, error } });
    await expect(answer).resolves.toEqual({ ok: false, error });
  });

  it('fails invokes pending on a dropped socket, then reconnects with backoff', async () => {
    const { bridge, sockets, latest, states } = setUp();
    latest().open();
    const pending = bridge.invoke('sync.now', {});
    latest().drop();
    await expect(pending).resolves.toEqual(connectionLostResult);
    expect(states).toEqual(['open', 'reconnecting']);

    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    latest().drop();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    // A successful connection resets the backoff.
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(4);
    expect(states).toEqual(['open', 'reconnecting', 'open', 'reconnecting']);
  });

  it('sends invokes made while reconnecting once the socket is back', async () => {
    const { bridge, latest } = setUp();
    latest().open();
    latest().drop();
    const queued = bridge.invoke('sync.status', {});
    vi.advanceTimersByTime(100);
    latest().open();
    const frame = latest().sent[0]!;
    expect(frame.channel).toBe('sync.status');
    latest().push(ok(frame.id, 'answer'));
    await expect(queued).resolves.toEqual({ ok: true, data: 'answer' });
  });

  it('never leaves a queued invoke hanging when the host stays away', async () => {
    const { bridge } = setUp();
    const queued = bridge.invoke('session.get', {});
    vi.advanceTimersByTime(5_000);
    await expect(queued).resolves.toEqual(connectionLostResult);
  });

  it('delivers valid events to their listeners and ignores malformed frames', () => {
    const { bridge, latest } = setUp();
    latest().open();
    const changes: unknown[] = [];
    const unsubscribe = bridge.on('data.changed', (payload) => changes.push(payload));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    latest().push({ type: 'event', event: 'data.changed', payload: { entities: ['contract'] } });
    latest().push({ type: 'event', event: 'data.changed', payload: { entities: ['nonsense'] } });
    latest().push('not json');
    latest().push({ type: 'event', event: 'unknown.event', payload: {} });
    unsubscribe();
    latest().push({ type: 'event', event: 'data.changed', payload: { entities: ['contract'] } });

    expect(changes).toEqual([{ entities: ['contract'] }]);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
