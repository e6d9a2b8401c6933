import { basename, join } from 'node:path';
import type { Logger } from '../core/ports';

// Files the renderer hands over as downloads (a scene's Excel export, src-renderer/app/download.ts)
// reach Electron's session as a download. Left alone, Electron picks a path by its own routine; here
// every download asks where to save through the system's save dialog, which opens in the user's
// Downloads folder with the file's own name. The Electron objects come in as these small
// interfaces, so this module runs under plain Node in the tests.

export type DownloadState = 'completed' | 'cancelled' | 'interrupted';

export interface DownloadItemLike {
  getFilename(): string;
  setSaveDialogOptions(options: { defaultPath: string }): void;
  getSavePath(): string;
  once(event: 'done', listener: (event: unknown, state: DownloadState) => void): unknown;
}

export interface DownloadSession {
  on(event: 'will-download', listener: (event: unknown, item: DownloadItemLike) => void): unknown;
}

/** Points each download's save dialog at `downloadsDir()` and logs how it ended (a cancelled dialog is the user's choice). */
export function saveDownloadsThroughDialog(session: DownloadSession, downloadsDir: () => string, logger: Logger): void {
  session.on('will-download', (_event, item) => {
    const name = basename(item.getFilename());
    item.setSaveDialogOptions({ defaultPath: join(downloadsDir(), name) });
    item.once('done', (_done, state) => {
      if (state === 'completed') logger.info(`download saved: ${item.getSavePath()}`);
      else if (state === 'interrupted') logger.warn(`download interrupted: ${name}`);
    });
  });
}
