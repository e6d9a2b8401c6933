/** Electron IPC channel names that carry the shared channel map between preload and main. */
export const invokeChannel = 'contract-desk:invoke';
export const eventChannel = 'contract-desk:event';
/** The renderer asks the shell to open a route in a new window (not a core call). */
export const openWindowChannel = 'contract-desk:open-window';

/** The origin every app window loads from (see app-protocol.ts). */
export const appScheme = 'app';
export const appOrigin = `${appScheme}://desk`;
