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

/** 'archive' is the contract archive (spec 2): PDF only. */
export const filePurposes = ['attachment', 'archive'] as const;
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
