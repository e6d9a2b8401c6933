/** Electron IPC channel names that carry the shared channel map between preload and main. */
export const invokeChannel = 'contract-desk:invoke';
export const eventChannel = 'contract-desk:event';

/** The origin every app window loads from (see app-protocol.ts). */
export const appScheme = 'app';
export const appOrigin = `${appScheme}://desk`;
