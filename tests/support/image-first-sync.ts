import { syncImageBodyPath } from '../../src-shared/api/sync';
import { openKeptReplica } from './replica-file';

/**
 * Not what a sync writes: the reads the device fetches and caches when online (a sync round may
 * fetch the drafting catalogue or not, by the time), and the reminders it showed by its own clock (fired_reminders, and the in-app list in replica_meta's reminder_inbox).
 */
const ownTables = new Set(['cached_reads', 'drafting_catalogue', 'catalogue_templates', 'catalogue_counterparties', 'fired_reminders']);

/** Every row of every table of the (closed, encrypted) replica, in a fixed order; the device's own identity, times and reminders aside. */
export function replicaRows(path: string): Record<string, unknown[]> {
  const sqlite = openKeptReplica(path, { readonly: true });
  try {
    const tables = sqlite
      .prepare<[], { name: string }>(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'contract_search%' order by name`)
      .all()
      .map(({ name }) => name)
      .filter((name) => !ownTables.has(name));
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) {
      const columns = sqlite.prepare(`select * from "${table}" limit 0`).columns().map((column) => `"${column.name}"`);
      const all = sqlite.prepare(`select * from "${table}" order by ${columns.join(', ')}`).all();
      rows[table] = table === 'replica_meta' ? all.filter((row) => !['client_id', 'last_sync_at', 'pull_cursor', 'reminder_inbox'].includes((row as { key: string }).key)) : all;
    }
    // The full-text index by what it answers: each indexed row's text.
    rows.contract_search = sqlite.prepare(`select r.contract_id, r.source, s.name, s.contract_number, s.counterpart_name, s.form_text from search_rows r join contract_search s on s.rowid = r.id order by r.contract_id, r.source`).all();
    return rows;
  } finally {
    sqlite.close();
  }
}

/** fetch, noting each download of a replica image's bytes in `downloads`. */
export function noteImageDownloads(downloads: string[]): typeof fetch {
  return (input, init) => {
    const target = String(input instanceof Request ? input.url : input);
    if (new URL(target).pathname.startsWith(syncImageBodyPath.replace(':sha256', ''))) downloads.push(target);
    return fetch(input, init);
  };
}
