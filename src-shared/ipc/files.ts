import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { filePurposes, queuedFilePurposes } from '../api/files';
import { appErrorSchema } from '../errors';
import { uploadValueSchema } from '../form/field-config';

// File upload through the core (spec 4 "File upload", spec 5 upload messages). The renderer may not
// call the server, so it hands the core the file in chunks: begin (checked up front, before any
// byte moves), chunks in order, finish (the core streams the file to the server). The server's
// multipart route is documented in docs/api/files.md.

/** The server's default upload limit (docs/api/files.md); the spec gives none. */
export const maxUploadBytes = 20 * 1024 * 1024;

/** The largest chunk, decoded; its base64 text fits the web host's frames with room to spare. */
export const maxUploadChunkBytes = 256 * 1024;

const uploadIdSchema = z.string().uuid();

/**
 * What the core needs to check a file before any byte moves: its format, size and reported MIME
 * type go through the form's own checks (src-shared/form/upload.ts) in the core, which answers
 * with the spec's messages.
 */
export const uploadBeginRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    /** What the browser reports ('' when unknown). */
    mimeType: z.string().max(255).default(''),
    contractId: idSchema.optional(),
    purpose: z.enum(filePurposes).default('attachment'),
  })
  .strict();
export type UploadBeginRequest = z.input<typeof uploadBeginRequestSchema>;

/** Base64 text of at most maxUploadChunkBytes bytes. */
const chunkDataSchema = z
  .string()
  .max(Math.ceil(maxUploadChunkBytes / 3) * 4, `a chunk holds at most ${maxUploadChunkBytes} bytes`)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'a chunk is base64 text')
  .refine((text) => text.length % 4 === 0, 'a chunk is base64 text');

export const uploadChunkRequestSchema = z
  .object({ uploadId: uploadIdSchema, index: z.number().int().nonnegative(), data: chunkDataSchema })
  .strict();

export const uploadIdRequestSchema = z.object({ uploadId: uploadIdSchema }).strict();

export const uploadBeginResponseSchema = z.object({ uploadId: uploadIdSchema });
export const uploadChunkResponseSchema = z.object({ received: z.number().int().nonnegative() });

/** The form's upload value: `file` is the server's download path. */
export const uploadFinishResponseSchema = uploadValueSchema;

export const fileOpenRequestSchema = z.object({ id: z.string().uuid() }).strict();

/**
 * A file kept on this device until the server has it (issue 30): an attachment or an archive's
 * PDF chosen offline, its id already the server's file id. `sent` is what the server acknowledged.
 * 'refused': the server will not take it (`error` says why); it stays until the edit naming it is settled.
 */
export const queuedFileSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  sent: z.number().int().nonnegative(),
  purpose: z.enum(queuedFilePurposes),
  contractId: z.string().nullable(),
  state: z.enum(['waiting', 'refused']),
  error: appErrorSchema.nullable(),
});
export type QueuedFile = z.infer<typeof queuedFileSchema>;

/** The files waiting to upload, and the device's bound they count against (the archive cache setting). */
export const queuedFilesSchema = z.object({
  files: z.array(queuedFileSchema),
  usedBytes: z.number().int().nonnegative(),
  limitBytes: z.number().int().nonnegative(),
});
export type QueuedFiles = z.infer<typeof queuedFilesSchema>;
