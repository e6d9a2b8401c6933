import {
  events,
  type Bridge,
  type ChannelName,
  type ChannelRequest,
  type ChannelResponse,
  type EventName,
  type IpcResult,
} from '../../src-shared/ipc/channels';
import { hostFrameSchema, type ClientFrame } from '../../src-shared/ipc/wire';
import { toAppError } from '../../src-shared/errors';
import { reconnectDelay } from './backoff';
import type { ConnectionState, Transport } from './transport';

/** The part of the browser WebSocket this transport uses, so tests can drive it without a network. */
export type SocketLike = Pick<WebSocket, 'readyState' | 'send' | 'onopen' | 'onclose' | 'onmessage'>;

export interface WebSocketTransportOptions {
  openSocket?: (url: string) => SocketLike;
  /** How long an invoke made while (re)connecting waits for the socket before it fails. */
  queueTimeoutMs?: number;
  reconnectDelay?: (attempt: number) => number;
}

const socketOpen = 1;

type Settle = (result: IpcResult<unknown>) => void;

/** What a caller gets instead of hanging when the line to the app core is down. */
export const connectionLostResult: IpcResult<never> = {
  ok: false,
  error: { code: 'internal', message: 'The connection to the app core was lost.' },
};

export function createWebSocketTransport(url: string, options: WebSocketTransportOptions = {}): Transport {
  const openSocket = options.openSocket ?? ((address: string) => new WebSocket(address));
  const queueTimeoutMs = options.queueTimeoutMs ?? 15_000;
  const delayFor = options.reconnectDelay ?? reconnectDelay;

  let socket: SocketLike | null = null;
  let state: ConnectionState = 'connecting';
  let failedAttempts = 0;
  let nextId = 1;
  const inFlight = new Map<number, Settle>();
  // A Map keeps insertion order, so queued invokes go out in the order they were made.
  const queued = new Map<number, { frame: ClientFrame; settle: Settle; timer: ReturnType<typeof setTimeout> }>();
  const eventListeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();

  function setState(next: ConnectionState) {
    if (next === state) return;
    state = next;
    for (const listener of connectionListeners) listener(next);
  }

  function send(frame: ClientFrame, settle: Settle) {
    if (!socket || socket.readyState !== socketOpen) {
      settle(connectionLostResult);
      return;
    }
    inFlight.set(frame.id, settle);
    try {
      socket.send(JSON.stringify(frame));
    } catch (cause) {
      inFlight.delete(frame.id);
      settle({ ok: false, error: toAppError(cause) });
    }
  }

  function receive(data: unknown) {
    let parsed: unknown;
    try {
      parsed = typeof data === 'string' ? JSON.parse(data) : undefined;
    } catch {
      parsed = undefined;
    }
    const frame = hostFrameSchema.safeParse(parsed);
    if (!frame.success) {
      console.warn('Ignored a malformed frame from the web host.', data);
      return;
    }
    if (frame.data.type === 'result') {
      const settle = inFlight.get(frame.data.id);
      inFlight.delete(frame.data.id);
      settle?.(frame.data.result);
      return;
    }
    const name = frame.data.event;
    if (!Object.prototype.hasOwnProperty.call(events, name)) return;
    const payload = events[name as EventName].safeParse(frame.data.payload);
    if (!payload.success) {
      console.warn(`Ignored a malformed '${name}' event from the web host.`, frame.data.payload);
      return;
    }
    for (const listener of eventListeners.get(name as EventName) ?? []) listener(payload.data);
  }

  function connect() {
    const current = openSocket(url);
    socket = current;
    current.onopen = () => {
      failedAttempts = 0;
      setState('open');
      for (const [id, entry] of queued) {
        clearTimeout(entry.timer);
        queued.delete(id);
        send(entry.frame, entry.settle);
      }
    };
    current.onmessage = (event) => receive(event.data);
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      // Answers to these can no longer arrive: fail them now rather than leave callers waiting.
      for (const settle of inFlight.values()) settle(connectionLostResult);
      inFlight.clear();
      setState('reconnecting');
      setTimeout(connect, delayFor(failedAttempts++));
    };
  }

  const bridge: Bridge = {
    invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>) {
      return new Promise<IpcResult<ChannelResponse<C>>>((resolve) => {
        const settle = resolve as Settle;
        const frame: ClientFrame = { type: 'invoke', id: nextId++, channel, request };
        if (state === 'open') {
          send(frame, settle);
          return;
        }
        const timer = setTimeout(() => {
          queued.delete(frame.id);
          settle(connectionLostResult);
        }, queueTimeoutMs);
        queued.set(frame.id, { frame, settle, timer });
      });
    },
    on(event, listener) {
      const listeners = eventListeners.get(event) ?? new Set();
      eventListeners.set(event, listeners);
      const untyped = listener as (payload: unknown) => void;
      listeners.add(untyped);
      return () => listeners.delete(untyped);
    },
  };

  connect();

  return {
    bridge,
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}
