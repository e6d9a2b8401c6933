import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, NonIdealState, ProgressBar } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ContractStatus } from '../../../src-shared/domain/enums';
import type { UploadValue } from '../../../src-shared/form/field-config';
import { stepRefusal } from '../../../src-shared/rules/contract-status';
import { useSessionQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { showFailure, showNotice } from '../../app/toaster';
import { errorTextWithDetail } from '../../i18n/errorText';
import { bridgeOf, uploadThroughCore } from '../contracts/useBridgeFormServices';
import { useConfirmArchiveMutation } from './archiveApi';
import { ArchivedPdf } from './ArchivedPdf';
import { LazyPdfViewer } from './LazyPdfViewer';
import './archive.css';

export interface ArchivableContract {
  id: string;
  name: string;
  status: ContractStatus | null;
  /** Archived on this device, not yet applied by the server: its PDF is kept here. */
  archivePending?: boolean;
}

/** Whether this user may archive the contract now (the server's own rule: approvers, approved contracts). */
export function useMayArchive(status: ContractStatus | null): boolean {
  const { data: session } = useSessionQuery();
  return session?.signedIn === true && stepRefusal('contract', 'archive', status, session.user.role) === undefined;
}

type Upload = { file: File; bytes: Uint8Array; progress: number; value: UploadValue | null; error: string | null };

/** Upload of the signed PDF, shown as it will be archived; confirm stays disabled until the server holds it. */
function ArchiveUpload({ contract, onClose }: { contract: ArchivableContract; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [upload, setUpload] = useState<Upload | null>(null);
  const [confirm, confirmState] = useConfirmArchiveMutation();
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const bytes = new Uint8Array(await file.arrayBuffer());
    setUpload({ file, bytes, progress: 0, value: null, error: null });
    try {
      const value = await uploadThroughCore(
        dispatch(bridgeOf),
        file,
        { contractId: contract.id, signal: controller.signal, onProgress: (progress) => setUpload((current) => current && { ...current, progress }) },
        'archive',
      );
      if (!controller.signal.aborted) setUpload((current) => current && { ...current, value, progress: 1 });
    } catch (cause) {
      if (!controller.signal.aborted) setUpload((current) => current && { ...current, error: errorTextWithDetail(t, cause as never) });
    }
  };

  const submit = async () => {
    if (!upload?.value) return;
    try {
      await confirm({ contractId: contract.id, fileId: upload.value.id, fileName: upload.value.name }).unwrap();
      showNotice(t('archive.archive.queued'));
      onClose();
    } catch (cause) {
      showFailure(errorTextWithDetail(t, cause as never));
    }
  };

  return (
    <>
      <DialogBody>
        <div className="archive-upload">
          <FileInput
            data-testid="archive-file-input"
            className="archive-upload__file"
            text={upload?.file.name ?? t('archive.archive.choose')}
            // The button says what it does in a word; the field beside it says what to choose, whole.
            buttonText={upload ? t('archive.archive.replace') : t('archive.archive.browse')}
            inputProps={{ accept: '.pdf,application/pdf' }}
            disabled={confirmState.isLoading}
            onInputChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
          {upload && !upload.value && !upload.error && <ProgressBar intent="primary" value={upload.progress} />}
        </div>
        {/* A refused file is not shown: its one message says why (the viewer would add a second). */}
        {upload?.error ? (
          <Callout intent="danger" icon="error" title={upload.error} data-testid="archive-upload-error" />
        ) : upload ? (
          <LazyPdfViewer data={upload.bytes} />
        ) : (
          <NonIdealState icon="upload" title={t('archive.archive.choose')} description={t('archive.archive.chooseHint')} />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('archive.archive.cancel')} disabled={confirmState.isLoading} onClick={onClose} />
            <Button
              intent="primary"
              data-testid="archive-confirm"
              text={t('archive.archive.confirm')}
              disabled={!upload?.value}
              loading={confirmState.isLoading}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </>
  );
}

/** The contract archive dialog (spec 2): upload and confirm for an approved contract, the kept PDF for an archived one. */
export function ArchiveDialog({ contract, onClose }: { contract: ArchivableContract; onClose(): void }) {
  const { t } = useTranslation();
  const archived = contract.status === ContractStatus.Archived || contract.archivePending === true;
  return (
    <Dialog isOpen onClose={onClose} title={t('archive.archive.titleOf', { name: contract.name })} className="archive-dialog">
      {archived ? (
        <>
          <DialogBody>
            <ArchivedPdf contractId={contract.id} />
          </DialogBody>
          <DialogFooter actions={<Button text={t('archive.archive.close')} onClick={onClose} />} />
        </>
      ) : (
        <ArchiveUpload contract={contract} onClose={onClose} />
      )}
    </Dialog>
  );
}

/** The archive action of a ledger row or the contract page: archive (approvers, approved contracts) or open the archived PDF. */
export function ArchiveAction({ contract, minimal = false }: { contract: ArchivableContract; minimal?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const mayArchive = useMayArchive(contract.status);
  const archived = contract.status === ContractStatus.Archived || contract.archivePending === true;
  if (!mayArchive && !archived) return null;
  const label = archived ? t('archive.archive.view') : t('archive.archive.action');
  return (
    <>
      <Button
        data-testid={archived ? 'archive-view' : 'archive-open'}
        icon="archive"
        variant={minimal ? 'minimal' : undefined}
        size={minimal ? 'small' : undefined}
        aria-label={label}
        title={label}
        text={minimal ? undefined : label}
        onClick={() => setOpen(true)}
      />
      {open && <ArchiveDialog contract={contract} onClose={() => setOpen(false)} />}
    </>
  );
}
