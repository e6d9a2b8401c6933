import { AppFailure } from '../../../src-shared/errors';
import type { Language } from '../../../src-shared/i18n/languages';
import type { CoreFeature, FeatureHost } from '../feature';
import { createDocumentService, type DocumentService } from './document-service';
import type { ShippedFont } from './shipped-font';

// The contract's document (issue 29): the template's Word document kept with the drafting
// catalogue, filled with a contract's values from the replica, handed to the renderer as DOCX or PDF;
// and a template's document as written, for its approval page.

export type ContractDocumentChannel = 'contractDocument.produce' | 'contractDocument.read' | 'contractDocument.template';

export interface ContractDocumentOptions {
  language: () => Language;
  font?: () => ShippedFont;
}

export function createContractDocumentFeature(host: FeatureHost, options: ContractDocumentOptions): CoreFeature<ContractDocumentChannel> & { settled(): Promise<void> } {
  let documents: DocumentService | null = null;

  function current(): DocumentService {
    host.signedIn();
    if (!documents) throw new AppFailure('not_signed_in');
    return documents;
  }

  return {
    start(session) {
      documents = createDocumentService({ session, hub: host.hub, logger: host.logger, ...options });
      documents.start();
    },
    stop() {
      documents?.stop();
      documents = null;
    },
    settled: () => documents?.settled() ?? Promise.resolve(),
    handlers: {
      'contractDocument.produce': (request) => current().produce(request),
      'contractDocument.read': ({ documentId, offset }) => current().read(documentId, offset),
      'contractDocument.template': ({ documentId, fileId }) => current().template(documentId, fileId),
    },
  };
}
