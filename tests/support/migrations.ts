import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplicaFeatures } from '../../src-main/core/data/replica-features';
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

/**
 * This build's replica features for a replica left at an earlier schema, whose performance_tasks
 * lacks this build's task columns (client migration 0036 added front_task_ids): the task and
 * reminder-settings writers, which prepare their statements over those columns, write nothing.
 * For tests that pull other entities there.
 */
export function withoutTaskWriters(features: ReplicaFeatures): ReplicaFeatures {
  const unused = () => ({ page: () => ({ write: () => [] }) });
  return { ...features, pulled: { ...features.pulled, performanceTask: unused, reminderSettings: unused } };
}
