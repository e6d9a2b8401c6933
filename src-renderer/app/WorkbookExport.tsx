import { useEffect, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogBody, ProgressBar } from '@blueprintjs/core';
import type { AppError } from '../../src-shared/errors';
import { toAppError } from '../../src-shared/errors';
import { downloadFile, readInPieces } from './download';
import { showFailure, showNotice } from './toaster';

// An Excel export the core writes (a scene as shown, the audit trail): the button, the progress
// the core reports by event in a dialog that keeps the rest of the screen from changing the export
// meanwhile, and the finished file read back in pieces and offered as a download.

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExportProgress {
  exportId: string;
  written: number;
  total: number;
}

export interface WorkbookExportProps {
  /** The button's test id; its progress is `${testId}-progress`. */
  testId: string;
  disabled: boolean;
  texts: {
    button: string;
    title: string;
    preparing: string;
    progress(progress: ExportProgress): string;
    done(rows: number): string;
    failed(error: AppError): string;
  };
  /** The file's name without the day and extension. */
  fileName(): string;
  /** Calls the listener with the core's progress events; answers the unsubscribe. */
  onProgress(listener: (progress: ExportProgress) => void): () => void;
  write(exportId: string): Promise<{ rows: number }>;
  read(exportId: string, offset: number): Promise<{ data: string; size: number }>;
  /** Shown beside the button (what the export holds). */
  children?: ReactNode;
}

export function WorkbookExport({ testId, disabled, texts, fileName, onProgress, write, read, children }: WorkbookExportProps) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const exportId = progress?.exportId;

  useEffect(() => {
    if (!exportId) return undefined;
    return onProgress((event) => {
      if (event.exportId === exportId) setProgress(event);
    });
  }, [exportId, onProgress]);

  async function run() {
    const id = crypto.randomUUID();
    setProgress({ exportId: id, written: 0, total: 0 });
    try {
      const { rows } = await write(id);
      const bytes = await readInPieces((offset) => read(id, offset));
      const day = new Date().toISOString().slice(0, 10);
      downloadFile(bytes, `${fileName().replace(/[\\/:*?"<>|]/g, '_')}-${day}.xlsx`, xlsxType);
      showNotice(texts.done(rows));
    } catch (cause) {
      showFailure(texts.failed(toAppError(cause)));
    } finally {
      setProgress(null);
    }
  }

  const share = progress && progress.total > 0 ? progress.written / progress.total : undefined;
  return (
    <>
      <Button data-testid={testId} icon="export" variant="minimal" text={texts.button} disabled={disabled || progress !== null} onClick={() => void run()} />
      {children}
      <Dialog isOpen={progress !== null} title={texts.title} isCloseButtonShown={false} canEscapeKeyClose={false} canOutsideClickClose={false} style={{ width: 420 }}>
        <DialogBody>
          <div data-testid={`${testId}-progress`} role="status" aria-live="polite">
            <p>{progress && progress.total > 0 ? texts.progress(progress) : texts.preparing}</p>
            <ProgressBar intent="primary" value={share} stripes={share === undefined} />
          </div>
        </DialogBody>
      </Dialog>
    </>
  );
}
