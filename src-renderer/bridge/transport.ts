import { bridgeGlobalName } from '../../src-shared/ipc/bridge-global';
import type { Bridge } from '../../src-shared/ipc/channels';
import { webHostKeyName, webHostSocketPath } from '../../src-shared/ipc/wire';
import { createWebSocketTransport } from './webSocketTransport';

/** 'reconnecting' covers both a dropped socket and a first connection that failed. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

/** A bridge plus the health of the line it runs on (only a WebSocket can drop). */
export interface Transport {
  readonly bridge: Bridge;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
}

/** The bridge Electron's preload exposed, or undefined in a browser. */
export function preloadBridge(): Bridge | undefined {
  return (window as unknown as Partial<Record<typeof bridgeGlobalName, Bridge>>)[bridgeGlobalName];
}

/** Electron's preload exposes a ready bridge; in a browser the web host carries it over a WebSocket. */
export function selectTransport(): Transport {
  const desktop = preloadBridge();
  if (desktop) {
    // Electron IPC never drops, so there is no connection state to report.
    return { bridge: desktop, onConnectionChange: () => () => undefined };
  }
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  // The web host opens its socket only to its own pages: it wrote this launch's key into this one.
  const key = document.querySelector<HTMLMetaElement>(`meta[name="${webHostKeyName}"]`)?.content ?? '';
  return createWebSocketTransport(`${scheme}://${window.location.host}${webHostSocketPath}?${webHostKeyName}=${encodeURIComponent(key)}`);
}
