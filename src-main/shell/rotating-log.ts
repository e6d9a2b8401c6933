import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../core/ports';

export interface RotatingLogOptions {
  dir: string;
  /** The file is `<name>.log`; older ones are `<name>.1.log` (newest) … `<name>.<keep>.log`. */
  name?: string;
  maxBytes?: number;
  /** How many rotated files to keep beside the current one. */
  keep?: number;
  now?: () => Date;
}

function describe(detail: unknown): string {
  if (detail === undefined || detail === '') return '';
  if (detail instanceof Error) return ` ${detail.stack ?? detail.message}`;
  try {
    return ` ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
  } catch {
    return ` ${String(detail)}`;
  }
}

/**
 * The core's Logger writing to a size-rotated file in the logs folder. Writes are synchronous so
 * the last lines before a crash are on disk; a failing disk never throws into the app.
 */
export function rotatingFileLogger(options: RotatingLogOptions): Logger {
  const name = options.name ?? 'main';
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = options.keep ?? 5;
  const now = options.now ?? (() => new Date());
  const file = (index: number) => join(options.dir, index === 0 ? `${name}.log` : `${name}.${index}.log`);
  let size: number | null = null;

  function currentSize(): number {
    try {
      return statSync(file(0)).size;
    } catch {
      return 0;
    }
  }

  function rotate() {
    rmSync(file(keep), { force: true });
    for (let index = keep - 1; index >= 0; index -= 1) {
      try {
        renameSync(file(index), file(index + 1));
      } catch {
        // A missing file in the chain is normal until `keep` rotations have happened.
      }
    }
  }

  function write(level: string, message: string, detail: unknown) {
    try {
      const line = `${now().toISOString()} ${level} ${message}${describe(detail)}\n`;
      const bytes = Buffer.byteLength(line);
      if (size === null) {
        mkdirSync(options.dir, { recursive: true });
        size = currentSize();
      }
      if (size > 0 && size + bytes > maxBytes) {
        rotate();
        size = 0;
      }
      appendFileSync(file(0), line);
      size += bytes;
    } catch {
      size = null;
    }
  }

  return {
    info: (message, detail) => write('INFO', message, detail),
    warn: (message, detail) => write('WARN', message, detail),
    error: (message, detail) => write('ERROR', message, detail),
  };
}
