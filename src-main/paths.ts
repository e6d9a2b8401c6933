import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Where the repository's built pieces are when the app runs from a checkout (web host, npm start).
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const clientMigrationsDir = join(repoRoot, 'migrations', 'client');
export const rendererDistDir = join(repoRoot, 'dist', 'renderer');
export const appVersion: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;

/** The operating system's locale as Node sees it (LANG / ICU default). */
export function systemLocale(): string {
  const fromEnv = process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG;
  if (fromEnv && fromEnv !== 'C' && fromEnv !== 'POSIX') return fromEnv.split('.')[0]!.replace('_', '-');
  return Intl.DateTimeFormat().resolvedOptions().locale;
}
