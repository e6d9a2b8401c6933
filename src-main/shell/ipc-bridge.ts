import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { IpcResult } from '../../src-shared/ipc/channels';
import type { Core } from '../core/core';
import { appOrigin, eventChannel, invokeChannel, openWindowChannel } from './ipc-names';
import type { WindowManager } from './window-manager';

/** Only frames loaded from the app's own origin may call the core. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  const url = event.senderFrame?.url;
  if (!url) return false;
  try {
    // app: is not a "special" scheme, so URL.origin is "null" for every app:// URL: compare parts.
    const parsed = new URL(url);
    const own = new URL(appOrigin);
    return parsed.protocol === own.protocol && parsed.host === own.host;
  } catch {
    return false;
  }
}

/**
 * Carries the channel map over Electron IPC: calls go to the core's dispatcher, events go to every
 * window. Returns a function that undoes the wiring.
 */
export function wireCoreToIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  core: Pick<Core, 'invoke' | 'subscribe'>,
  windows: () => Pick<WebContents, 'send' | 'isDestroyed'>[],
): () => void {
  ipcMain.handle(invokeChannel, async (event, channel: unknown, request: unknown): Promise<IpcResult<unknown>> => {
    if (!isTrustedSender(event)) {
      return { ok: false, error: { code: 'forbidden', message: 'This window may not call the app core.' } };
    }
    return core.invoke(channel, request);
  });
  const unsubscribe = core.subscribe((event, payload) => {
    for (const contents of windows()) {
      if (!contents.isDestroyed()) contents.send(eventChannel, event, payload);
    }
  });
  return () => {
    ipcMain.removeHandler(invokeChannel);
    unsubscribe();
  };
}

/**
 * The bridge's openWindow: a trusted window asks for one of the app's routes in a new window. The
 * window manager checks the route against the spec's routes; the asker is told when it refused.
 */
export function wireWindowOpening(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, windows: Pick<WindowManager, 'openRoute'>): () => void {
  ipcMain.handle(openWindowChannel, (event, route: unknown): IpcResult<null> => {
    if (!isTrustedSender(event)) {
      return { ok: false, error: { code: 'forbidden', message: 'This window may not open app windows.' } };
    }
    const decision = windows.openRoute(route);
    if (decision.kind === 'refuse') return { ok: false, error: { code: 'bad_request', message: `This page cannot be opened: ${decision.reason}.` } };
    return { ok: true, data: null };
  });
  return () => ipcMain.removeHandler(openWindowChannel);
}
