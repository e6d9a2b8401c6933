import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { LedgerSearch } from '../../../src-shared/domain/ledger';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { useAppDispatch } from '../../app/hooks';
import { WorkbookExport, type ExportProgress } from '../../app/WorkbookExport';
import { errorText } from '../../i18n/errorText';
import { shownLanguage } from '../../i18n/language';
import { bridgeOf, invoke } from '../contracts/useBridgeFormServices';
import { sceneName } from './sceneText';

// Export the scene as shown (its columns, filters and sort) to an Excel file: the core writes it
// (progress by event), the renderer reads it back in pieces and offers it as a download.

interface SceneExportProps {
  scene: SceneView;
  search: Omit<LedgerSearch, 'pageNum' | 'pageSize'>;
  disabled: boolean;
}

export function SceneExport({ scene, search, disabled }: SceneExportProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const onProgress = useCallback((listener: (progress: ExportProgress) => void) => dispatch(bridgeOf).on('ledger.exportProgress', listener), [dispatch]);
  return (
    <WorkbookExport
      testId="scene-export"
      disabled={disabled}
      texts={{
        button: t('scenes.export.button'),
        title: t('scenes.export.title'),
        preparing: t('scenes.export.preparing'),
        progress: ({ written, total }) => t('scenes.export.progress', { written, total }),
        done: (count) => t('scenes.export.done', { count }),
        failed: (error) => `${t('scenes.export.failed')} ${errorText(t, error)}`,
      }}
      fileName={() => sceneName(t, scene)}
      onProgress={onProgress}
      write={(exportId) => invoke(dispatch(bridgeOf), 'ledger.export', { exportId, search, language: shownLanguage(i18n.language) })}
      read={(exportId, offset) => invoke(dispatch(bridgeOf), 'ledger.exportRead', { exportId, offset })}
    />
  );
}
