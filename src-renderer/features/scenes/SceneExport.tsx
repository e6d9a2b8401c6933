import { useEffect, useState } from 'react';
import { Button, Dialog, DialogBody, ProgressBar } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { LedgerSearch } from '../../../src-shared/domain/ledger';
import { toAppError } from '../../../src-shared/errors';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { useAppDispatch } from '../../app/hooks';
import { downloadFile, readInPieces } from '../../app/download';
import { showFailure, showNotice } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import { bridgeOf, invoke } from '../contracts/useBridgeFormServices';
import { sceneName } from './sceneText';

// Export the scene as shown (its columns, filters and sort) to an Excel file: the core writes it
// (progress by event), the renderer reads it back in pieces and offers it as a download.

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface SceneExportProps {
  scene: SceneView;
  search: Omit<LedgerSearch, 'pageNum' | 'pageSize'>;
  disabled: boolean;
}

interface Progress {
  exportId: string;
  written: number;
  total: number;
}

export function SceneExport({ scene, search, disabled }: SceneExportProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [progress, setProgress] = useState<Progress | null>(null);
  const exportId = progress?.exportId;

  useEffect(() => {
    if (!exportId) return undefined;
    return dispatch(bridgeOf).on('ledger.exportProgress', (event) => {
      if (event.exportId === exportId) setProgress(event);
    });
  }, [exportId, dispatch]);

  async function run() {
    const id = crypto.randomUUID();
    setProgress({ exportId: id, written: 0, total: 0 });
    const bridge = dispatch(bridgeOf);
    try {
      const { rows } = await invoke(bridge, 'ledger.export', { exportId: id, search });
      const bytes = await readInPieces((offset) => invoke(bridge, 'ledger.exportRead', { exportId: id, offset }));
      const day = new Date().toISOString().slice(0, 10);
      downloadFile(bytes, `${sceneName(t, scene).replace(/[\\/:*?"<>|]/g, '_')}-${day}.xlsx`, xlsxType);
      showNotice(t('scenes.export.done', { count: rows }));
    } catch (cause) {
      showFailure(`${t('scenes.export.failed')} ${errorText(t, toAppError(cause))}`);
    } finally {
      setProgress(null);
    }
  }

  const share = progress && progress.total > 0 ? progress.written / progress.total : undefined;
  return (
    <>
      <Button data-testid="scene-export" icon="export" variant="minimal" text={t('scenes.export.button')} disabled={disabled || progress !== null} onClick={() => void run()} />
      <Dialog isOpen={progress !== null} title={t('scenes.export.title')} isCloseButtonShown={false} canEscapeKeyClose={false} canOutsideClickClose={false} style={{ width: 420 }}>
        <DialogBody>
          <div data-testid="scene-export-progress" role="status" aria-live="polite">
            <p>{progress && progress.total > 0 ? t('scenes.export.progress', { written: progress.written, total: progress.total }) : t('scenes.export.preparing')}</p>
            <ProgressBar intent="primary" value={share} stripes={share === undefined} />
          </div>
        </DialogBody>
      </Dialog>
    </>
  );
}
