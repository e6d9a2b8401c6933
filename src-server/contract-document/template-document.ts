import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { readDocumentBookmarks } from '../../src-shared/contract-document/docx';
import type { TemplateDocument } from '../../src-shared/contract-document/schema';
import { AppFailure, reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { uploadedFiles } from '../files/schema';

// A template's Word document (issue 29): a template write names an uploaded file (purpose
// 'template'); the server reads its bookmarks from the stored bytes and keeps them with the
// template, so every reader of the template knows them without opening the file.

export interface TemplateDocuments {
  /** The document a write names, read from the file store; refuses a file that is missing or no usable DOCX. */
  resolve(tx: ServerDb, organisationId: string, fileId: string): Promise<TemplateDocument>;
}

const missing = () => new AppFailure('bad_request', 'the template document was not uploaded, or is no longer on the server', undefined, reason('documentFileMissing'));

export function templateDocuments(filesDir: string): TemplateDocuments {
  return {
    async resolve(tx, organisationId, fileId) {
      const [file] = await tx
        .select({ id: uploadedFiles.id, name: uploadedFiles.name, size: uploadedFiles.size })
        .from(uploadedFiles)
        .where(and(eq(uploadedFiles.id, fileId), eq(uploadedFiles.organisationId, organisationId), eq(uploadedFiles.purpose, 'template')));
      if (!file) throw missing();
      const bytes = await readFile(path.join(filesDir, file.id)).catch(() => {
        throw missing();
      });
      return { fileId: file.id, name: file.name, size: file.size, bookmarks: readDocumentBookmarks(new Uint8Array(bytes)) };
    },
  };
}
