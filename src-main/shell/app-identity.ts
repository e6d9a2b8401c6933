/**
 * The installer's appId (electron-builder.yml `appId`). Windows groups taskbar buttons and
 * notifications by it, so `app.setAppUserModelId` must use the very same value; a test keeps the
 * two equal.
 */
export const appId = 'org.contractdesk.app';
