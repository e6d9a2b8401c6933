import { z } from 'zod';
import { contractStatusSchema, idSchema } from '../domain/contract';
import { pageSchema } from '../api/envelope';

// Contract archive (spec 2 "contract archive", 5 "Archive confirm is disabled until a PDF is
// uploaded") and the local full-text search (issue 14): the archived PDF kept in a bounded cache
// on this device, its text extracted by the core and indexed beside the contract's terms.

/** Marks a matched part of a search result's text: start…end (never in contract text). */
export const matchStart = '\u0002';
export const matchEnd = '\u0003';

/** The archive cache's size in megabytes (a setting); enough for a few hundred signed contracts by default. */
export const archiveCacheMegabytes = { min: 16, max: 100_000, default: 512 } as const;
export const archiveCacheMegabytesSchema = z.number().int().min(archiveCacheMegabytes.min).max(archiveCacheMegabytes.max);

/** A contract's archived PDF as this device knows it. */
export const archivedFileSchema = z.object({
  contractId: idSchema,
  fileId: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  /** Its bytes are on this device (they open offline). */
  cached: z.boolean(),
  /** Pages read so far by the text extraction, and the document's page count once known. */
  indexedPages: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative().nullable(),
  /** Its text is in the full-text index. */
  indexed: z.boolean(),
});
export type ArchivedFile = z.infer<typeof archivedFileSchema>;

export const archiveContractRequestSchema = z.object({ contractId: idSchema }).strict();

export const archiveConfirmRequestSchema = z
  .object({ contractId: idSchema, fileId: z.string().uuid(), fileName: z.string().trim().min(1).max(255) })
  .strict();

/** The largest piece of a cached PDF one read answers (base64 fits the web host's frames). */
export const archiveReadChunkBytes = 512 * 1024;

export const archiveReadRequestSchema = z.object({ contractId: idSchema, offset: z.number().int().nonnegative() }).strict();
export const archiveReadResponseSchema = z.object({ data: z.string(), size: z.number().int().nonnegative() });

/** Progress of a PDF's text extraction (an event: the index grows off the UI thread). */
export const archiveIndexingEventSchema = z.object({
  contractId: idSchema,
  indexedPages: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  done: z.boolean(),
});

export const archiveCacheUsageSchema = z.object({
  usedBytes: z.number().int().nonnegative(),
  limitBytes: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  /** Files waiting to upload (issue 30): kept until sent, they count against the same bound. */
  queuedBytes: z.number().int().nonnegative(),
  queuedFiles: z.number().int().nonnegative(),
});

export const fullTextPageSizes = [10, 20, 50] as const;

export const fullTextSearchRequestSchema = z
  .object({
    q: z.string().trim().min(1).max(200),
    pageNum: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.union([z.literal(10), z.literal(20), z.literal(50)]).default(20),
  })
  .strict();
export type FullTextSearchRequest = z.input<typeof fullTextSearchRequestSchema>;

/** Where a result's excerpt comes from. */
export const excerptSources = ['form', 'pdf'] as const;

/** One contract found, best first; text with matchStart/matchEnd around what matched. */
export const fullTextHitSchema = z.object({
  contractId: idSchema,
  status: contractStatusSchema.nullable(),
  name: z.string(),
  contractNumber: z.string().nullable(),
  counterpartName: z.string().nullable(),
  excerpt: z.object({ source: z.enum(excerptSources), text: z.string() }).nullable(),
});
export type FullTextHit = z.infer<typeof fullTextHitSchema>;

/** A search counts its matches up to this many; past it the page says "more" instead of an exact count. */
export const fullTextCountCap = 1000;

/**
 * A page of hits; `count` stops at fullTextCountCap, and `more` says that more contracts match.
 * `indexing`, while the index is still being built (after a first sync), says how far it is: the
 * contracts not yet indexed are not found.
 */
export const fullTextPageSchema = pageSchema(fullTextHitSchema).extend({
  more: z.boolean(),
  indexing: z.object({ indexed: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).nullable(),
});
export type FullTextPage = z.infer<typeof fullTextPageSchema>;
