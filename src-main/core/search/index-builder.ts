import type { ReplicaConnection } from '../data/replica';

// The full-text index after a first sync (client migration 0030): the index triggers stood aside
// while the pull wrote the replica, and every contract row (synced or optimistic) without a
// `search_rows` entry is indexed here, a step at a time, so the core keeps answering between
// steps. The missing entries are the whole state: a restart mid-way simply goes on.

const sources = ['base', 'local'] as const;
type Source = (typeof sources)[number];

export interface SearchIndexBuilder {
  /** Indexes up to `limit` rows still missing from the index; the number indexed (0: complete). */
  step(limit: number): number;
  /** Whether the index triggers stand aside (a first sync is writing the replica). */
  deferred(): boolean;
  /**
   * After a build: the indexes' usual merging back, and fresh planner statistics (those taken when
   * the first sync ended, the index still empty, would have each trigger scan the index's rows:
   * 20 ms an edit at 50,000 contracts).
   */
  finish(): void;
  /** The contract rows indexed and all there are (synced and optimistic): what a search reports while the index is incomplete. */
  progress(): { indexed: number; total: number };
}

export function searchIndexBuilder(sqlite: ReplicaConnection): SearchIndexBuilder {
  const deferredFlag = sqlite.prepare<[], number>(`select exists (select 1 from replica_meta where key = 'search_index_deferred')`).pluck();
  const table = (source: Source) => (source === 'base' ? 'contracts' : 'contracts_local');
  const missing = Object.fromEntries(
    sources.map((source) => [
      source,
      sqlite
        .prepare<[string, number], string>(
          `select c.id from ${table(source)} as c
            where c.id > ? and not exists (select 1 from search_rows as r where r.contract_id = c.id and r.source = '${source}')
            order by c.id limit ?`,
        )
        .pluck(),
    ]),
  );
  const addRows = sqlite.prepare<[string, string]>(`insert into search_rows (contract_id, source) select value, ? from json_each(?)`);
  // The same rows, text and character pairs as the triggers write (migrations 0022 and 0030).
  const addText = sqlite.prepare<[string, string]>(
    `insert into contract_search (rowid, name, contract_number, counterpart_name, form_text, pdf_text)
     select r.id, v.name, v.contract_number, v.counterpart_name, v.form_text, v.pdf_text
       from search_rows as r join contract_search_text as v on v.id = r.contract_id and v.source = r.source
      where r.source = ? and r.contract_id in (select value from json_each(?))`,
  );
  const addPairs = sqlite.prepare<[string, string]>(
    `insert into contract_search_bigrams (rowid, name, contract_number, counterpart_name, form_text, pdf_text)
     select rowid, cjk_bigrams(name), cjk_bigrams(contract_number), cjk_bigrams(counterpart_name), cjk_bigrams(form_text), cjk_bigrams(pdf_text)
       from contract_search where rowid in (select id from search_rows where source = ? and contract_id in (select value from json_each(?)))`,
  );
  const counts = sqlite.prepare<[], { indexed: number; total: number }>(
    `select (select count(*) from search_rows) as indexed, (select count(*) from contracts) + (select count(*) from contracts_local) as total`,
  );
  // Where the last step of each source stopped: a build walks the ids upwards from it. Rows a
  // first sync wrote since (an emptied replica synced again) may have any id, so a source that
  // has nothing left above it is looked at once more from its first id before it counts as done.
  const after: Record<Source, string> = { base: '', local: '' };
  const missingOf = (source: Source, limit: number) => {
    const ids = missing[source]!.all(after[source], limit);
    if (ids.length > 0 || after[source] === '') return ids;
    after[source] = '';
    return missing[source]!.all('', limit);
  };
  const deferred = () => deferredFlag.get() === 1;
  // FTS5 merges a level of an index's segments once it holds `automerge` of them (4 by default).
  // A build writes a segment per table a step; merging them 4 at a time rewrote what earlier merges
  // wrote, and the two tables' merges crowded each other out of the page cache: 8.6 s for 50,000
  // contracts. Merging 16 at a time took 5.4–6.3 s; the end sets the default back (searches were
  // answered as fast either way).
  const setAutomerge = (segments: number) => {
    for (const table of ['contract_search', 'contract_search_bigrams']) sqlite.prepare(`insert into ${table} (${table}, rank) values ('automerge', ${segments})`).run();
  };
  let bulk = false;

  return {
    deferred,
    finish() {
      setAutomerge(4);
      bulk = false;
      sqlite.exec('ANALYZE');
    },
    progress: () => counts.get()!,
    step(limit) {
      if (deferred()) return 0;
      return sqlite.transaction(() => {
        for (const source of sources) {
          const ids = missingOf(source, limit);
          if (ids.length === 0) continue;
          if (!bulk) setAutomerge(16);
          bulk = true;
          const list = JSON.stringify(ids);
          addRows.run(source, list);
          addText.run(source, list);
          addPairs.run(source, list);
          after[source] = ids.at(-1)!;
          return ids.length;
        }
        return 0;
      })();
    },
  };
}
