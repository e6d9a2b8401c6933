import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { renderAsync } from 'docx-preview';
import { useTranslation } from 'react-i18next';
import { toAppError, type AppError } from '../../../src-shared/errors';
import type { Bridge } from '../../../src-shared/ipc/channels';
import { documentMimeTypes, type DocumentFormat } from '../../../src-shared/ipc/contract-document';
import { downloadFile, readInPieces } from '../../app/download';
import { useAppDispatch } from '../../app/hooks';
import { showFailure } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import { bridgeOf, invoke } from '../contracts/useBridgeFormServices';
import './contract-document.css';

// The contract page's document tab (issue 29): the template's Word document filled by the core
// with the contract as this device has it (offline too), rendered in place with docx-preview, and
// downloaded as DOCX or as PDF (for signature). It is shown in the app's font (the shipped CJK font),
// not the document's, so Chinese reads on a machine without the fonts Word used. The template
// approval page renders a template's document the same way (TemplateDocumentPreview).

/** Has the core fill the contract's document and reads it back. */
export async function producedDocument(bridge: Bridge, contractId: string, format: DocumentFormat): Promise<{ name: string; bytes: Uint8Array<ArrayBuffer> }> {
  const documentId = crypto.randomUUID();
  const { name } = await invoke(bridge, 'contractDocument.produce', { documentId, contractId, format });
  return { name, bytes: await readInPieces((offset) => invoke(bridge, 'contractDocument.read', { documentId, offset })) };
}

/** A template's document as written (its approval page inserts nothing, spec 4), read back from the core. */
export async function templateDocument(bridge: Bridge, fileId: string): Promise<Uint8Array<ArrayBuffer>> {
  const documentId = crypto.randomUUID();
  await invoke(bridge, 'contractDocument.template', { documentId, fileId });
  return readInPieces((offset) => invoke(bridge, 'contractDocument.read', { documentId, offset }));
}

export type DocumentPhase = { phase: 'loading' } | { phase: 'failed'; error: AppError } | { phase: 'shown' };

/**
 * A DOCX rendered in place with docx-preview: `load` gives its bytes, again whenever `wanted`
 * changes, and only while `enabled`. The returned ref is the pages' container.
 */
export function useRenderedDocument(wanted: string, load: () => Promise<Uint8Array<ArrayBuffer>>, enabled = true) {
  const container = useRef<HTMLDivElement>(null);
  // What was last rendered, or the error it met; anything else is still loading.
  const [result, setResult] = useState<{ key: string; error: AppError | null } | null>(null);
  const state: DocumentPhase = result?.key !== wanted ? { phase: 'loading' } : result.error ? { phase: 'failed', error: result.error } : { phase: 'shown' };
  const settled = result?.key === wanted;

  useEffect(() => {
    if (!enabled || settled) return;
    let live = true;
    void (async () => {
      try {
        const bytes = await load();
        if (!live || !container.current) return;
        await renderAsync(new Blob([bytes]), container.current, undefined, { className: 'docx', inWrapper: true, breakPages: true, ignoreLastRenderedPageBreak: true, ignoreFonts: true });
        if (live) setResult({ key: wanted, error: null });
      } catch (cause) {
        if (live) setResult({ key: wanted, error: toAppError(cause) });
      }
    })();
    return () => {
      live = false;
    };
  }, [enabled, wanted, settled, load]);

  return { container, state };
}

export interface ContractDocumentTabProps {
  contractId: string;
  /** Changes whenever the contract does (its version and local edits): the document is filled again. */
  revision: string;
  /** The contract's template has a document. */
  hasDocument: boolean;
  /** The tab is shown: nothing is filled while it is not. */
  active: boolean;
}

export function ContractDocumentTab({ contractId, revision, hasDocument, active }: ContractDocumentTabProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const [downloading, setDownloading] = useState<DocumentFormat | null>(null);
  // The core writes the values in the app's language (the one the UI follows): a switch fills it again.
  const wanted = `${contractId}:${revision}:${i18n.language}`;
  const load = useCallback(async () => (await producedDocument(dispatch(bridgeOf), contractId, 'docx')).bytes, [dispatch, contractId]);
  const { container, state } = useRenderedDocument(wanted, load, active && hasDocument);

  async function download(format: DocumentFormat) {
    setDownloading(format);
    try {
      const { name, bytes } = await producedDocument(dispatch(bridgeOf), contractId, format);
      downloadFile(bytes, name, documentMimeTypes[format]);
    } catch (cause) {
      showFailure(`${t('contractDocument.tab.downloadFailed')} ${errorText(t, toAppError(cause))}`);
    } finally {
      setDownloading(null);
    }
  }

  if (!hasDocument) {
    return (
      <div className="contract-page__panel" data-testid="contract-document-none">
        <NonIdealState icon="document" title={t('contractDocument.tab.noDocument')} description={t('contractDocument.tab.noDocumentHint')} />
      </div>
    );
  }
  return (
    <div className="contract-document" data-testid="contract-document" data-phase={state.phase}>
      <div className="contract-document__toolbar">
        <ButtonGroup>
          <Button icon="download" data-testid="contract-document-docx" text={t('contractDocument.tab.downloadDocx')} loading={downloading === 'docx'} disabled={downloading !== null} onClick={() => void download('docx')} />
          <Button icon="document" data-testid="contract-document-pdf" text={t('contractDocument.tab.downloadPdf')} loading={downloading === 'pdf'} disabled={downloading !== null} onClick={() => void download('pdf')} />
        </ButtonGroup>
        <span className="contract-document__note">{t('contractDocument.tab.fromDevice')}</span>
      </div>
      {state.phase === 'loading' && <Spinner size={24} aria-label={t('contractDocument.tab.loading')} />}
      {state.phase === 'failed' && (
        <Callout intent="danger" title={t('contractDocument.tab.failed')} data-testid="contract-document-failed">
          {errorText(t, state.error)}
        </Callout>
      )}
      <div ref={container} className="contract-document__pages" data-testid="contract-document-pages" hidden={state.phase === 'failed'} />
    </div>
  );
}
