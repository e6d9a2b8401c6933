import type { AppUpdater } from 'electron-updater';
import { isAbsolute, relative } from 'node:path';
import type { Logger } from '../core/ports';

/** The environment variable through which IT names the update server (a generic HTTP folder). */
export const updateUrlVariable = 'CONTRACT_DESK_UPDATE_URL';

const checkEveryMs = 4 * 60 * 60 * 1000;

/**
 * A per-machine Windows install lives under Program Files, which users cannot write: such a
 * machine is updated by IT, so the app only tells the user a new version exists.
 */
export function isPerMachineInstall(exePath: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'win32') return false;
  return [env.ProgramFiles, env['ProgramFiles(x86)'], env.ProgramW6432].some((root) => {
    if (!root) return false;
    const inside = relative(root.toLowerCase(), exePath.toLowerCase());
    return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
  });
}

/** The update server's address from the environment, or null when unset or not http(s). */
export function updateFeedUrl(env: NodeJS.ProcessEnv, logger: Logger): string | null {
  const raw = env[updateUrlVariable]?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
  } catch {
    // Reported below, like any other unusable value.
  }
  logger.warn(`${updateUrlVariable} is not an http(s) address; updates are off`);
  return null;
}

export interface UpdateOptions {
  updater: Pick<AppUpdater, 'setFeedURL' | 'checkForUpdates' | 'on' | 'autoDownload' | 'autoInstallOnAppQuit'>;
  feedUrl: string | null;
  perMachine: boolean;
  logger: Logger;
  notify(title: string, body: string): void;
}

/**
 * Checks the generic update server at start and every four hours. Per-user installs download in
 * the background and install on quit; per-machine installs only notify. Returns a stop function.
 */
export function startUpdates(options: UpdateOptions): () => void {
  const { updater, logger } = options;
  if (!options.feedUrl) {
    logger.info(`updates are off (${updateUrlVariable} is not set)`);
    return () => {};
  }
  updater.setFeedURL({ provider: 'generic', url: options.feedUrl });
  updater.autoDownload = !options.perMachine;
  updater.autoInstallOnAppQuit = !options.perMachine;
  updater.on('update-available', (info) => {
    logger.info(`update ${info.version} available`);
    if (options.perMachine) {
      options.notify(`Contract Desk ${info.version} is available`, 'Your IT department installs updates on this computer.');
    }
  });
  updater.on('update-downloaded', (info) => {
    options.notify(`Contract Desk ${info.version} is ready`, 'It is installed when you quit the app.');
  });
  updater.on('error', (error) => logger.warn('update check failed', error.message));
  const check = () => {
    updater.checkForUpdates().catch((error: unknown) => logger.warn('update check failed', String(error)));
  };
  check();
  const timer = setInterval(check, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
