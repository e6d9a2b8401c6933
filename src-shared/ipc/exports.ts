import { z } from 'zod';
import { auditEventsQuerySchema } from '../api/audit';
import { languages } from '../i18n/languages';

// The app's Excel exports (a scene as shown, the audit trail): the core writes the file (progress
// by event), the renderer reads it back in pieces and offers it as a download.

/**
 * The UI language the file is written in (sheet name, headers, values): the page's, which in the web
 * edition follows the browser, not the host process the core runs in.
 */
export const exportLanguageSchema = z.enum(languages);

export const exportResponseSchema = z.object({ rows: z.number().int().nonnegative(), size: z.number().int().nonnegative() });
/** A piece of the finished file (base64), from `offset`; the file is removed once its last piece is read. */
export const exportReadRequestSchema = z.object({ exportId: z.string().uuid(), offset: z.number().int().nonnegative() }).strict();
export const exportReadResponseSchema = z.object({ data: z.string(), size: z.number().int().nonnegative() });
/** Rows written so far (an event: a large export shows its progress). */
export const exportProgressSchema = z.object({ exportId: z.string(), written: z.number().int().nonnegative(), total: z.number().int().nonnegative() });

/** The audit trail's events matching the screen's filters (issue 32), online only; the renderer names the export. */
export const auditExportRequestSchema = z
  .object({
    exportId: z.string().uuid(),
    filters: auditEventsQuerySchema.omit({ pageNum: true, pageSize: true, untilSeq: true }),
    language: exportLanguageSchema,
  })
  .strict();
