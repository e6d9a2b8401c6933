import { z } from 'zod';
import { idSchema } from '../domain/contract';

// A template's Word document as the API, the IPC channels and the replica carry it (issue 29).

/** The largest template document accepted: far above a real contract (tens to hundreds of KiB). */
export const maxTemplateDocumentBytes = 10 * 1024 * 1024;

export const docxMimeType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A template's document as its detail carries it: the stored file and the bookmarks read from it. */
export const templateDocumentSchema = z.object({
  fileId: idSchema,
  name: z.string().max(255),
  size: z.number().int().nonnegative(),
  bookmarks: z.array(z.string().max(100)).max(2000),
});
export type TemplateDocument = z.infer<typeof templateDocumentSchema>;

/** What a template write names as its document: an uploaded file (purpose 'template'), or null to drop it. */
export const templateDocumentRefSchema = z.object({ fileId: idSchema }).strict();
