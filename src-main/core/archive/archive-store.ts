import { and, asc, desc, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { ArchivedFile } from '../../../src-shared/ipc/archive';
import { ContractStatus } from '../../../src-shared/domain/enums';
import type { OpenReplica } from '../data/replica';
import { archivedFiles, contracts, contractsOverlay } from '../data/schema';

// The replica's record of archived PDFs (migration 0015): which file a contract was archived
// with, whether its bytes are in the cache, and its extracted text (which the index triggers copy).

export type ArchivedFileRow = typeof archivedFiles.$inferSelect;

export function toArchivedFile(row: ArchivedFileRow): ArchivedFile {
  return {
    contractId: row.contractId,
    fileId: row.fileId,
    name: row.name,
    size: row.size,
    cached: row.cached,
    indexedPages: row.indexedPages,
    pages: row.pages,
    indexed: row.text !== null,
  };
}

export function archiveStore(replica: OpenReplica) {
  const { db } = replica;
  const get = (contractId: string): ArchivedFileRow | undefined => db.select().from(archivedFiles).where(eq(archivedFiles.contractId, contractId)).get();
  return {
    get,

    /** The contract's status as the user sees it; undefined when it is not in the replica. */
    contractStatus(contractId: string): { status: ContractStatus | null } | undefined {
      return db.select({ status: contractsOverlay.status }).from(contractsOverlay).where(eq(contractsOverlay.id, contractId)).get() as
        | { status: ContractStatus | null }
        | undefined;
    },

    /** The contract's PDF is now in the cache; another file than the one recorded starts its text afresh. */
    kept(row: { contractId: string; fileId: string; name: string; size: number }, at: string): ArchivedFileRow {
      const fresh = { ...row, cached: true, openedAt: at, pages: null, indexedPages: 0, text: null };
      const existing = get(row.contractId);
      if (existing?.fileId === row.fileId) {
        db.update(archivedFiles).set({ name: row.name, size: row.size, cached: true, openedAt: at }).where(eq(archivedFiles.contractId, row.contractId)).run();
      } else {
        db.insert(archivedFiles).values(fresh).onConflictDoUpdate({ target: archivedFiles.contractId, set: fresh }).run();
      }
      return get(row.contractId)!;
    },

    opened(contractId: string, at: string): void {
      db.update(archivedFiles).set({ openedAt: at }).where(eq(archivedFiles.contractId, contractId)).run();
    },

    evicted(contractId: string): void {
      db.update(archivedFiles).set({ cached: false }).where(eq(archivedFiles.contractId, contractId)).run();
    },

    progress(contractId: string, indexedPages: number, pages: number): void {
      db.update(archivedFiles).set({ indexedPages, pages }).where(eq(archivedFiles.contractId, contractId)).run();
    },

    /** The whole text at once: the index triggers re-index the contract's rows with it. */
    indexed(contractId: string, fileId: string, text: string, pages: number): void {
      db.update(archivedFiles)
        .set({ text, pages, indexedPages: pages })
        .where(and(eq(archivedFiles.contractId, contractId), eq(archivedFiles.fileId, fileId)))
        .run();
    },

    /**
     * Archived contracts whose PDF this device never kept (archived by others, or before this
     * device synced), newest first: what the background prefetch fetches. A PDF the cache evicted
     * is not among them, so the prefetch never undoes the cache's own choice.
     */
    neverKept: (limit: number): { contractId: string }[] =>
      // The synced rows, on their (status, update time) index: archiving is online only, so the
      // server's status is the one that says a PDF exists (the overlay view would be built whole).
      db
        .select({ contractId: contracts.id })
        .from(contracts)
        .where(
          and(
            eq(contracts.status, ContractStatus.Archived),
            notExists(db.select({ one: sql`1` }).from(archivedFiles).where(eq(archivedFiles.contractId, contracts.id))),
          ),
        )
        .orderBy(desc(contracts.updateTime), asc(contracts.id))
        .limit(limit)
        .all(),

    /** Cached PDFs, least recently opened first: the order they leave the cache in. */
    cachedByAge: (): ArchivedFileRow[] => db.select().from(archivedFiles).where(eq(archivedFiles.cached, true)).orderBy(asc(archivedFiles.openedAt)).all(),

    /** Cached PDFs whose text is not indexed yet (an extraction a restart interrupted). */
    unindexed: (): ArchivedFileRow[] => db.select().from(archivedFiles).where(and(eq(archivedFiles.cached, true), isNull(archivedFiles.text))).all(),

    usage(): { usedBytes: number; files: number } {
      const row = db
        .select({ usedBytes: sql<number>`coalesce(sum(${archivedFiles.size}), 0)`, files: sql<number>`count(*)` })
        .from(archivedFiles)
        .where(eq(archivedFiles.cached, true))
        .get();
      return { usedBytes: row?.usedBytes ?? 0, files: row?.files ?? 0 };
    },
  };
}
export type ArchiveStore = ReturnType<typeof archiveStore>;
