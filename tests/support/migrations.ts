import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientMigrationsDir } from '../../src-main/paths';

/** The client migrations this build knows, in order. */
export const clientJournal = JSON.parse(readFileSync(join(clientMigrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };

/** The migrations folder (made under `dir`) of a build that knew only the first `count` client migrations. */
export function migrationsUpTo(dir: string, count: number): string {
  const folder = join(dir, `migrations-${count}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const entries = clientJournal.entries.slice(0, count);
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...clientJournal, entries }));
  for (const entry of entries) copyFileSync(join(clientMigrationsDir, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}
