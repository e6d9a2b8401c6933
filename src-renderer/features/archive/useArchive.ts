import { useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/errors';
import { toAppError } from '../../../src-shared/errors';
import type { ArchivedFile } from '../../../src-shared/ipc/archive';
import type { EventPayload } from '../../../src-shared/ipc/channels';
import { readInPieces } from '../../app/download';
import { useAppDispatch } from '../../app/hooks';
import { bridgeOf, invoke } from '../contracts/useBridgeFormServices';
import { invalidateArchive } from './archiveApi';

/** The kept PDF's bytes, read from the core piece by piece; undefined while reading. */
export function useArchivedBytes(file: ArchivedFile | null | undefined): { data?: Uint8Array; error?: AppError } {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<{ key: string; data?: Uint8Array; error?: AppError } | null>(null);
  // The bytes follow the kept file (its contract and file id), not the record's other fields
  // (indexing progress): the effect depends on those ids alone.
  const contractId = file?.cached ? file.contractId : null;
  const fileId = file?.cached ? file.fileId : null;
  const key = contractId && fileId ? `${contractId}:${fileId}` : null;

  useEffect(() => {
    if (!key || !contractId) return;
    let live = true;
    const bridge = dispatch(bridgeOf);
    void (async () => {
      try {
        const bytes = await readInPieces((offset) => invoke(bridge, 'archive.read', { contractId, offset }), () => live);
        if (live) setState({ key, data: bytes });
      } catch (cause) {
        if (live) setState({ key, error: toAppError(cause) });
      }
    })();
    return () => {
      live = false;
    };
  }, [key, contractId, dispatch]);
  return state?.key === key ? state : {};
}

/** The text extraction's progress for one contract, from the core's events; the index is refetched when it ends. */
export function useIndexingProgress(contractId: string): EventPayload<'archive.indexing'> | null {
  const dispatch = useAppDispatch();
  const [progress, setProgress] = useState<EventPayload<'archive.indexing'> | null>(null);
  useEffect(
    () =>
      dispatch(bridgeOf).on('archive.indexing', (event) => {
        if (event.contractId !== contractId) return;
        setProgress(event);
        if (event.done) dispatch(invalidateArchive());
      }),
    [contractId, dispatch],
  );
  return progress;
}
