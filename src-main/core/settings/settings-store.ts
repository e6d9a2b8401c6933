import { join } from 'node:path';
import { archiveCacheMegabytes } from '../../../src-shared/ipc/archive';
import { settingsSchema, type Settings } from '../../../src-shared/ipc/channels';
import { readTextOrNull, writeFileAtomically } from '../files';
import type { Logger } from '../ports';

const defaults: Settings = { serverUrl: null, language: null, archiveCacheMegabytes: archiveCacheMegabytes.default };

/** The user's settings (server address, language, archive cache size), kept as JSON in the data folder. */
export function createSettingsStore(dataDir: string, logger: Logger) {
  const path = join(dataDir, 'settings.json');
  let current = load();

  function load(): Settings {
    const text = readTextOrNull(path);
    if (text === null) return { ...defaults };
    try {
      return { ...defaults, ...settingsSchema.partial().parse(JSON.parse(text)) };
    } catch (cause) {
      // A damaged settings file costs the user their preferences, never the app.
      logger.warn(`ignoring unreadable settings file ${path}`, cause);
      return { ...defaults };
    }
  }

  return {
    get: (): Settings => ({ ...current }),
    update(patch: Partial<Settings>): Settings {
      current = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      writeFileAtomically(path, JSON.stringify(current, null, 2));
      return { ...current };
    },
  };
}
export type SettingsStore = ReturnType<typeof createSettingsStore>;
