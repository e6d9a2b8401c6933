import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { Bridge } from '../../src-shared/ipc/channels';
import { bridgeGlobalName } from '../../src-shared/ipc/bridge-global';
import { eventChannel, invokeChannel, openWindowChannel } from './ipc-names';

// The renderer gets exactly three functions; no ipcRenderer, no Node, nothing else crosses.
const bridge: Bridge = {
  invoke: (channel, request) => ipcRenderer.invoke(invokeChannel, channel, request),
  on: (event, listener) => {
    const forward = (_: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) listener(payload as Parameters<typeof listener>[0]);
    };
    ipcRenderer.on(eventChannel, forward);
    return () => {
      ipcRenderer.removeListener(eventChannel, forward);
    };
  },
  openWindow: (route) => ipcRenderer.invoke(openWindowChannel, route),
};

contextBridge.exposeInMainWorld(bridgeGlobalName, bridge);
