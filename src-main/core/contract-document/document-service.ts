import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { fillTemplateDocument } from '../../../src-shared/contract-document/fill';
import { documentParagraphs } from '../../../src-shared/contract-document/text';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { AppFailure, reason, toAppError } from '../../../src-shared/errors';
import { isContractNameField } from '../../../src-shared/form/editability';
import { catalogWords } from '../../../src-shared/form/display-value';
import type { Language } from '../../../src-shared/i18n/languages';
import { documentReadChunkBytes, type documentProduceRequestSchema } from '../../../src-shared/ipc/contract-document';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { contractNotFound } from '../contracts/contract-store';
import { draftingStore } from '../contracts/drafting-store';
import type { EventHub } from '../events';
import type { Logger } from '../ports';
import type { ActiveSession } from '../session/session-service';
import { documentPdf } from './document-pdf';
import { shippedFont, type ShippedFont } from './shipped-font';

// The contract's document for one signed-in session (issue 29). The Word documents of the
// catalogue's templates are kept beside the replica (fetched whenever the catalogue is), so a
// contract's document is filled from the replica alone, offline too. What is produced stays in
// memory until the renderer has read it (or a few newer ones push it out).

export interface DocumentServiceOptions {
  session: ActiveSession;
  hub: EventHub;
  logger: Logger;
  /** The UI's language (the page's, see core.ts): the words the values are written in (currencies, yes and no, days). */
  language: () => Language;
  /** The font the PDF is set in (the shipped one unless a test says otherwise). */
  font?: () => ShippedFont;
}

/** Produced documents the renderer has not read to the end yet; older ones give way. */
const keptOutputs = 8;

/** The values the document shows: the form's, with the contract's own name and number where the form left them out. */
function documentValues(contract: ReplicaContractDetail, template: TemplateDetail): Record<string, unknown> {
  const values = { ...contract.formValues };
  const blank = (value: unknown) => value === undefined || value === null || value === '';
  for (const field of template.fields) {
    if (field.type === 'contractNumber' && blank(values[field.id])) values[field.id] = contract.contractNumber;
    else if (isContractNameField(field) && blank(values[field.id])) values[field.id] = contract.name;
  }
  return values;
}

export function createDocumentService(options: DocumentServiceOptions) {
  const { session, hub, logger } = options;
  const drafting = draftingStore(session.replica, session.user.id);
  // One folder per replica (per server and user): nobody else's templates are read from it.
  const dir = `${session.replica.path}.documents`;
  const fileOf = (fileId: string) => join(dir, `${fileId}.docx`);
  const outputs = new Map<string, Uint8Array>();
  let font: ShippedFont | null = null;
  let keeping: Promise<void> = Promise.resolve();
  let stopped = false;
  let unsubscribe: (() => void) | null = null;

  async function download(fileId: string): Promise<Uint8Array> {
    const send = (token: string) => session.client.downloadFile(fileId, token);
    const response = await send(session.token()).catch(async (cause: unknown) => {
      if (!(cause instanceof AppFailure) || cause.error.code !== 'unauthorized') throw cause;
      await session.refreshTokens();
      return send(session.token());
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    await mkdir(dir, { recursive: true });
    // Through a temporary name: never half a document.
    await writeFile(`${fileOf(fileId)}.part`, bytes, { mode: 0o600 });
    await rename(`${fileOf(fileId)}.part`, fileOf(fileId));
    return bytes;
  }

  /** The catalogue's documents kept here: the missing ones fetched, those no template names any more removed. */
  async function keepCatalogueDocuments(): Promise<void> {
    const wanted = new Set(drafting.catalogue().templates.flatMap((summary) => drafting.template(summary.id)?.document?.fileId ?? []));
    const present = new Set((await readdir(dir).catch(() => [] as string[])).map((name) => name.replace(/\.docx$/, '')));
    for (const fileId of wanted) {
      if (stopped) return;
      if (!present.has(fileId)) await download(fileId);
    }
    for (const name of present) if (!wanted.has(name)) await rm(join(dir, name.endsWith('.part') ? name : `${name}.docx`), { force: true });
  }

  function keepSoon(): void {
    keeping = keeping
      .then(keepCatalogueDocuments)
      .catch((cause: unknown) => logger.warn(`the templates' documents could not be kept: ${toAppError(cause).message}`));
  }

  /** A template's document: the kept copy, else fetched now (online). */
  async function templateBytes(fileId: string): Promise<Uint8Array> {
    const kept = await readFile(fileOf(fileId)).catch(() => null);
    if (kept) return new Uint8Array(kept);
    try {
      return await download(fileId);
    } catch (cause) {
      const error = toAppError(cause);
      if (error.code === 'server_unreachable' || error.code === 'offline') throw new AppFailure('offline', 'the template document is not kept on this device', undefined, reason('documentNotKept'));
      throw cause;
    }
  }

  function keepOutput(documentId: string, bytes: Uint8Array): void {
    outputs.delete(documentId);
    outputs.set(documentId, bytes);
    for (const id of outputs.keys()) if (outputs.size > keptOutputs) outputs.delete(id);
  }

  return {
    start(): void {
      keepSoon();
      unsubscribe = hub.subscribe((event, payload) => {
        if (event === 'data.changed' && (payload as { entities: string[] }).entities.includes('draftingCatalogue')) keepSoon();
      });
    },

    /** Waits for the documents being kept (tests, shutdown). */
    settled: (): Promise<void> => keeping,

    /** Fills the contract's document from the replica and keeps it (DOCX, or its PDF) for reading. */
    async produce(request: z.output<typeof documentProduceRequestSchema>): Promise<{ size: number; name: string }> {
      const contract = drafting.contractDetail(request.contractId);
      if (!contract) throw contractNotFound(request.contractId);
      const template = contract.templateId === null ? null : drafting.template(contract.templateId);
      if (!template?.document) throw new AppFailure('bad_request', `contract ${contract.id} has no template document`, undefined, reason('templateDocumentMissing'));
      const filled = fillTemplateDocument(await templateBytes(template.document.fileId), {
        fields: template.fields,
        clauses: template.clauses,
        formValues: documentValues(contract, template),
        words: catalogWords(options.language(), ''),
      });
      font ??= (options.font ?? shippedFont)();
      const bytes = request.format === 'docx' ? filled : await documentPdf(documentParagraphs(filled), contract.name, font);
      keepOutput(request.documentId, bytes);
      const safeName = contract.name.replace(/[\\/:*?"<>|]/g, '_').trim() || 'contract';
      return { size: bytes.length, name: `${safeName}.${request.format}` };
    },

    /** A template's document as written, kept for reading: its approval page inserts nothing (spec 4). */
    async template(documentId: string, fileId: string): Promise<{ size: number; name: string }> {
      const bytes = await templateBytes(fileId);
      keepOutput(documentId, bytes);
      return { size: bytes.length, name: `${fileId}.docx` };
    },

    /** A piece of a produced document; the last piece lets it go. */
    read(documentId: string, offset: number): { data: string; size: number } {
      const bytes = outputs.get(documentId);
      if (!bytes) throw new AppFailure('not_found', `no document ${documentId} was produced, or it was read already`);
      const piece = bytes.subarray(offset, offset + documentReadChunkBytes);
      if (offset + piece.length >= bytes.length) outputs.delete(documentId);
      return { data: Buffer.from(piece).toString('base64'), size: bytes.length };
    },

    stop(): void {
      stopped = true;
      unsubscribe?.();
      outputs.clear();
    },
  };
}
export type DocumentService = ReturnType<typeof createDocumentService>;
