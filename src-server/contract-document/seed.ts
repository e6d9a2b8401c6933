import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { readDocumentBookmarks } from '../../src-shared/contract-document/docx';
import { docxMimeType } from '../../src-shared/contract-document/schema';
import type { FieldConfig } from '../../src-shared/domain/contract-forms';
import type { ServerDb } from '../db/database';
import { templates } from '../db/schema';
import { uploadedFiles } from '../files/schema';
import { Random } from '../seed/random';
import { standardContractDocx, standardDocumentFieldIds } from './sample-document';

// The demo templates' Word documents (issue 29): the purchase and sales standard templates carry
// the standard contract document, its bookmarks named by their fields and clauses. The rows are
// written with the rest of the seed; the bytes go to the server's files folder after it.

/** The contract types whose standard template has a document. */
export const documentedContractTypes: readonly string[] = ['采购合同', '销售合同'];

/** The fields of a documented template name their bookmark of the standard document. */
export function withDocumentBookmarks(typeName: string, fields: FieldConfig[]): FieldConfig[] {
  if (!documentedContractTypes.includes(typeName)) return fields;
  const ids: readonly string[] = standardDocumentFieldIds;
  return fields.map((field) => (ids.includes(field.id) ? { ...field, bookmarkNames: [`bm_${field.id}`] } : field));
}

export interface SeededFile {
  id: string;
  bytes: Uint8Array;
}

/** Uploaded-file rows and template documents for the documented templates; the files to write. */
export async function seedTemplateDocuments(
  tx: ServerDb,
  seeded: readonly { id: string; name: string; typeName: string }[],
  options: { organisationId: string; uploadedBy: string; seed: number; at: Date },
): Promise<SeededFile[]> {
  const random = new Random(options.seed ^ 0x646f6378);
  const files: SeededFile[] = [];
  for (const template of seeded.filter((t) => documentedContractTypes.includes(t.typeName))) {
    const bytes = standardContractDocx(template.typeName);
    const id = uuidv7({ msecs: options.at.getTime(), random: random.bytes(16) });
    const name = `${template.name}.docx`;
    await tx.insert(uploadedFiles).values({
      id, organisationId: options.organisationId, contractId: null, uploadedBy: options.uploadedBy, name, extension: 'docx', mimeType: docxMimeType,
      size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), purpose: 'template', createTime: options.at,
    });
    await tx.update(templates).set({ document: { fileId: id, name, size: bytes.length, bookmarks: readDocumentBookmarks(bytes) } }).where(eq(templates.id, template.id));
    files.push({ id, bytes });
  }
  return files;
}

/** Writes the seeded files where the server keeps uploads (under their row's id). */
export async function writeSeededFiles(dir: string, files: readonly SeededFile[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of files) await writeFile(path.join(dir, file.id), file.bytes);
}
