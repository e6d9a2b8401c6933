import { useCallback } from 'react';
import { Callout, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { errorText } from '../../i18n/errorText';
import { bridgeOf } from '../contracts/useBridgeFormServices';
import { templateDocument, useRenderedDocument } from './ContractDocumentTab';
import './contract-document.css';

/**
 * A template's Word document as written, rendered as the contract page renders a contract's: the
 * template approval page shows it so approvers see what gets printed (nothing inserted, spec 4).
 */
export function TemplateDocumentPreview({ fileId }: { fileId: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const load = useCallback(() => templateDocument(dispatch(bridgeOf), fileId), [dispatch, fileId]);
  const { container, state } = useRenderedDocument(fileId, load);
  return (
    <div className="contract-document template-document-preview" data-testid="template-document-preview" data-phase={state.phase}>
      {state.phase === 'loading' && <Spinner size={24} aria-label={t('contractDocument.review.loading')} />}
      {state.phase === 'failed' && (
        <Callout intent="danger" title={t('contractDocument.tab.failed')} data-testid="template-document-preview-failed">
          {errorText(t, state.error)}
        </Callout>
      )}
      <div ref={container} className="contract-document__pages" data-testid="template-document-pages" hidden={state.phase === 'failed'} />
    </div>
  );
}
