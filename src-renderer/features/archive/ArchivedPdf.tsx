import { Callout, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ArchivedFile } from '../../../src-shared/ipc/archive';
import { errorText } from '../../i18n/errorText';
import { useArchivedFileQuery } from './archiveApi';
import { LazyPdfViewer } from './LazyPdfViewer';
import './archive.css';
import { useArchivedBytes, useIndexingProgress } from './useArchive';

/** Whether the PDF's text is in the search index yet, with the extraction's progress while it runs. */
function IndexingStatus({ file }: { file: ArchivedFile }) {
  const { t } = useTranslation();
  const progress = useIndexingProgress(file.contractId);
  if (file.indexed || progress?.done) {
    return (
      <Tag minimal icon="search-text" intent="success" data-testid="archive-indexed">
        {t('archive.archive.indexed', { pages: progress?.pages ?? file.pages ?? 0 })}
      </Tag>
    );
  }
  const done = progress?.indexedPages ?? file.indexedPages;
  const total = progress?.pages ?? file.pages;
  return (
    <div data-testid="archive-indexing">
      <span>{t('archive.archive.indexing', { done, total: total ?? '…' })}</span>
      <ProgressBar intent="primary" value={total ? done / total : undefined} />
    </div>
  );
}

/** The kept PDF of a file record: the viewer, or why it cannot be shown. */
function KeptPdf({ file }: { file: ArchivedFile }) {
  const { t } = useTranslation();
  const { data, error } = useArchivedBytes(file);
  if (!file.cached) return <Callout intent="warning" icon="offline" title={t('archive.archive.notKept')} data-testid="archive-not-kept" />;
  if (error) return <Callout intent="danger" icon="error" title={t('archive.archive.loadFailed')}>{errorText(t, error)}</Callout>;
  if (!data) return <Spinner />;
  return <LazyPdfViewer data={data} />;
}

/**
 * A contract's archived PDF (the contract page's attachments-and-archive tab and the ledger's
 * archive dialog): kept on this device, or fetched and kept when online.
 */
export function ArchivedPdf({ contractId }: { contractId: string }) {
  const { t } = useTranslation();
  const { data: file, error, isLoading } = useArchivedFileQuery(contractId);
  if (isLoading) return <Spinner />;
  if (error) return <Callout intent="warning" icon="offline" title={t('archive.archive.loadFailed')} data-testid="archive-error">{errorText(t, error)}</Callout>;
  if (!file) {
    return (
      <div data-testid="archive-none">
        <NonIdealState icon="archive" title={t('archive.archive.none')} />
      </div>
    );
  }
  return (
    <>
      <div className="archive-upload" data-testid="archive-file">
        <Tag icon="document" large minimal>
          {file.name}
        </Tag>
        <IndexingStatus file={file} />
      </div>
      <KeptPdf file={file} />
    </>
  );
}
