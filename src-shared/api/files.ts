import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { apiPrefix } from './endpoint';
import { formMessages } from '../form/messages';

// File upload and download (spec 4 "File upload", spec 5 upload messages). These are raw routes
// (multipart in, a byte stream out) outside the JSON endpoint map, documented in
// docs/api/files.md; errors and the upload's answer still use the { code, message, data } envelope.

export const fileUploadPath = `${apiPrefix}/files`;
/** GET `${apiPrefix}/files/:id` streams the file back. */
export const fileDownloadPath = (id: string) => `${apiPrefix}/files/${encodeURIComponent(id)}`;

/** The server's refusals of an upload: the very words the form and the core use (one source). */
export const uploadMessages = {
  unsupported: formMessages.formatNotSupported,
  tooLarge: formMessages.fileTooLarge,
  mismatch: formMessages.wrongFileFormat,
} as const;

/**
 * 'archive' is the contract archive (spec 2): PDF only. 'template' is a template's Word document
 * (issue 29): DOCX only, at most maxTemplateDocumentBytes, read by the whole organisation.
 */
export const filePurposes = ['attachment', 'archive', 'template'] as const;
export type FilePurpose = (typeof filePurposes)[number];

/** Accepted extensions (lower case), for the picker's accept list; the server also sniffs content. */
export const acceptedExtensions = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'png', 'jpg', 'jpeg', 'gif', 'txt', 'csv', 'zip'] as const;

export const uploadQuerySchema = z
  .object({
    /** Binds the file to a contract the uploader may see; who may see the contract may download it. */
    contractId: idSchema.optional(),
    purpose: z.enum(filePurposes).default('attachment'),
  })
  .strict();

/** The upload's answer; `id`, `name` and `file` (the download URL) make the form's upload value. */
export const uploadedFileSchema = z.object({
  id: idSchema,
  name: z.string(),
  file: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
  purpose: z.enum(filePurposes),
  contractId: idSchema.nullable(),
  createTime: z.string(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

// Resumable uploads (issue 30): a file kept on a desktop while offline goes to the server in
// chunks at offsets the server acknowledges, so a cut link resumes from the last acknowledged
// byte. The client names the upload with its own UUID, which becomes the stored file's id: a
// form value made offline names the server's file before it arrives, and a repeated begin (after
// a crash, on another server process) finds the same upload. Documented in docs/api/files.md.

/** POST begins (or finds) an upload; GET, PATCH (a chunk) and DELETE address one. */
export const uploadSessionsPath = `${apiPrefix}/files/uploads`;
export const uploadSessionPath = (id: string) => `${uploadSessionsPath}/${encodeURIComponent(id)}`;
/** The request header of a chunk: the byte offset it starts at, which must be the acknowledged one. */
export const uploadOffsetHeader = 'upload-offset';
/** A chunk's body type. */
export const uploadChunkContentType = 'application/offset+octet-stream';
/** The largest chunk the server takes. */
export const maxUploadSessionChunkBytes = 4 * 1024 * 1024;
/** How long an upload nobody continues is kept before its bytes are removed. */
export const uploadSessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;
/** The purposes a desktop queues: a template's document is an administration write, online only. */
export const queuedFilePurposes = ['attachment', 'archive'] as const satisfies readonly FilePurpose[];

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 digest in lower-case hex');

export const uploadSessionBeginSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string().trim().min(1).max(255),
    size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    /** The whole file's digest: checked when the last byte arrives. */
    sha256: sha256Schema,
    purpose: z.enum(queuedFilePurposes),
    contractId: idSchema.optional(),
  })
  .strict();
export type UploadSessionBegin = z.infer<typeof uploadSessionBeginSchema>;

/** Where an upload stands: `offset` bytes acknowledged; `file` once the last byte is in and checked. */
export const uploadSessionSchema = z.object({
  id: z.string().uuid(),
  size: z.number().int(),
  offset: z.number().int().nonnegative(),
  file: uploadedFileSchema.nullable(),
  /** When the server removes it if nobody continues it (null once complete). */
  expiresAt: z.string().nullable(),
});
export type UploadSession = z.infer<typeof uploadSessionSchema>;
