import { z } from 'zod';
import { idSchema } from '../domain/contract';

// The contract's document (issue 29) through the core: the template's Word document filled with
// the contract's values from the replica (so it works offline), as DOCX or PDF. The core writes
// it whole, the renderer reads it back in pieces (base64 fits the web host's frames).

export const documentFormats = ['docx', 'pdf'] as const;
export type DocumentFormat = (typeof documentFormats)[number];

export const documentMimeTypes: Record<DocumentFormat, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
};

/** The largest piece one read answers. */
export const documentReadChunkBytes = 512 * 1024;

export const documentProduceRequestSchema = z
  .object({
    /** Chosen by the renderer: the reads that follow name it. */
    documentId: z.string().uuid(),
    contractId: idSchema,
    format: z.enum(documentFormats),
  })
  .strict();

export const documentProduceResponseSchema = z.object({
  size: z.number().int().nonnegative(),
  /** The file name to save it under: the contract's name and the format's extension. */
  name: z.string(),
});

/** A template's Word document as written, for the template approval page (nothing inserted, spec 4). */
export const templateDocumentRequestSchema = z
  .object({
    documentId: z.string().uuid(),
    /** The template's document (`document.fileId` of its detail). */
    fileId: idSchema,
  })
  .strict();

export const documentReadRequestSchema = z.object({ documentId: z.string().uuid(), offset: z.number().int().nonnegative() }).strict();
export const documentReadResponseSchema = z.object({ data: z.string(), size: z.number().int().nonnegative() });
