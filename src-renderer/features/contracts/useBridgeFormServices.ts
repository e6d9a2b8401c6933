import { useMemo } from 'react';
import type { SerializedError, ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { endpoints } from '../../../src-shared/api/endpoints';
import { fileUploadPath, type FilePurpose } from '../../../src-shared/api/files';
import type { AppError } from '../../../src-shared/errors';
import type { UploadValue } from '../../../src-shared/form/field-config';
import type { Bridge, ChannelName, ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import { maxUploadChunkBytes, type QueuedFiles } from '../../../src-shared/ipc/files';
import { api, useAppInfoQuery, useDraftingCatalogueQuery, useSessionQuery } from '../../api/api';
import type { StoreExtra } from '../../api/baseQuery';
import { useAppDispatch } from '../../app/hooks';
import { showFailure } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import type { FormServices, UploadOptions } from '../contract-form';
import { openRoute } from './openRoute';

/** The store's bridge (its thunk extra argument), for calls that are not cached queries. */
export const bridgeOf: ThunkAction<Bridge, unknown, StoreExtra, UnknownAction> = (_dispatch, _getState, extra) => extra.bridge;

export async function invoke<C extends ChannelName>(bridge: Bridge, channel: C, request: ChannelRequest<C>): Promise<ChannelResponse<C>> {
  const result = await bridge.invoke(channel, request);
  if (!result.ok) throw result.error;
  return result.data;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // String.fromCharCode takes its bytes as arguments: a few thousand at a time stays within limits.
  for (let start = 0; start < bytes.length; start += 0x2000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x2000));
  return btoa(binary);
}

/**
 * Hands a file to the core in ordered chunks read slice by slice (never the whole file at once);
 * the core sends it to the server. Progress is the share of bytes sent. An abort stops at once,
 * tells the core to drop the upload, and rejects with the signal's reason (the field's cancel).
 */
export async function uploadThroughCore(
  bridge: Bridge,
  file: File,
  { onProgress, signal, contractId }: UploadOptions,
  /** 'archive' is the contract archive's signed PDF (PDF only). */
  purpose: FilePurpose = 'attachment',
): Promise<UploadValue> {
  signal.throwIfAborted();
  const { uploadId } = await invoke(bridge, 'files.uploadBegin', { name: file.name, size: file.size, mimeType: file.type, purpose, ...(contractId && { contractId }) });
  const cancel = () => void bridge.invoke('files.uploadCancel', { uploadId });
  // Rejects the moment the user cancels, so no pending step keeps the field waiting.
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      cancel();
      reject(signal.reason);
    };
  });
  aborted.catch(() => undefined);
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (let index = 0, start = 0; start < file.size; index += 1, start += maxUploadChunkBytes) {
      const slice = await Promise.race([file.slice(start, start + maxUploadChunkBytes).arrayBuffer(), aborted]);
      const bytes = new Uint8Array(slice);
      await Promise.race([invoke(bridge, 'files.uploadChunk', { uploadId, index, data: toBase64(bytes) }), aborted]);
      onProgress((start + bytes.length) / file.size);
    }
    return await Promise.race([invoke(bridge, 'files.uploadFinish', { uploadId }), aborted]);
  } catch (failure) {
    // A refused chunk leaves the upload open in the core: drop it (after a finish it is gone already).
    if (!signal.aborted) cancel();
    throw failure;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The id in a stored file's address (`${fileUploadPath}/<id>`, the upload value's `file`). */
function storedFileId(path: string): string | null {
  const prefix = `${fileUploadPath}/`;
  return path.startsWith(prefix) ? decodeURIComponent(path.slice(prefix.length)) : null;
}

/**
 * The form's services over the bridge (issue 6): party search over the kept counterparties,
 * server reads through 'online.call' (their answer checked against the endpoint's response schema
 * on arrival), the offline catalogue and the organisation-share flag. Undefined until the
 * catalogue and app info are read.
 */
export function useBridgeFormServices(): { services: FormServices | undefined; error: AppError | SerializedError | undefined } {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { data: catalogue, error: catalogueError } = useDraftingCatalogueQuery();
  const { data: appInfo, error: appInfoError } = useAppInfoQuery();
  const { data: session } = useSessionQuery();
  const organisationId = session?.signedIn ? session.user.organisationId : undefined;
  const services = useMemo(() => {
    if (!catalogue || !appInfo) return undefined;
    const services: FormServices = {
      catalogue,
      organizationShare: appInfo.organizationShare,
      ...(organisationId !== undefined && { organisationId }),
      searchParties: (request) => dispatch(api.endpoints.searchParties.initiate(request, { subscribe: false })).unwrap(),
      relatedCandidates: (q) => invoke(dispatch(bridgeOf), 'drafting.relatedCandidates', { q }),
      checkDuplicate: (query) => invoke(dispatch(bridgeOf), 'drafting.checkDuplicate', query),
      scoreDetail: (contractId) => invoke(dispatch(bridgeOf), 'scoring.detail', { contractId }),
      saveScore: (request) => invoke(dispatch(bridgeOf), 'scoring.save', request),
      onlineCall: async (endpoint, request) => {
        const data = await dispatch(
          api.endpoints.onlineCall.initiate({ endpoint, params: request.params ?? {}, query: request.query ?? {}, body: request.body }),
        ).unwrap();
        const parsed = endpoints[endpoint].response.safeParse(data);
        if (!parsed.success) {
          const error: AppError = { code: 'server_error', message: `${endpoint}: ${parsed.error.issues[0]?.message ?? 'unexpected answer'}` };
          throw error;
        }
        return parsed.data;
      },
      cachedRead: async (endpoint, request) => {
        const answer = await dispatch(api.endpoints.cachedRead.initiate({ endpoint, params: request.params ?? {}, query: request.query ?? {} }, { subscribe: false })).unwrap();
        const parsed = endpoints[endpoint].response.safeParse(answer.value);
        if (!parsed.success) {
          const error: AppError = { code: 'server_error', message: `${endpoint}: ${parsed.error.issues[0]?.message ?? 'unexpected answer'}` };
          throw error;
        }
        return { ...answer, value: parsed.data };
      },
      upload: (file, options) => uploadThroughCore(dispatch(bridgeOf), file, options),
      watchQueuedFile: (id, onChange) => {
        const bridge = dispatch(bridgeOf);
        let live = true;
        const pick = (queue: QueuedFiles) => onChange(queue.files.find((file) => file.id === id) ?? null);
        void bridge.invoke('files.queue', {}).then((result) => {
          if (live && result.ok) pick(result.data);
        });
        const off = bridge.on('files.queueChanged', pick);
        return () => {
          live = false;
          off();
        };
      },
      directory: () => dispatch(api.endpoints.directory.initiate(undefined, { subscribe: false })).unwrap(),
      openRoute: (path, options) => {
        // A stored file (the upload field's 'view') needs the session's token: the core downloads
        // it and the desktop opens it; a browser tab has no way to open what the core fetched.
        const fileId = storedFileId(path);
        if (fileId === null) return openRoute(path, (to) => void navigate(to), options);
        if (appInfo.host === 'web') return showFailure(t('files.openDesktopOnly'));
        invoke(dispatch(bridgeOf), 'files.open', { id: fileId }).catch((error: AppError) => showFailure(errorText(t, error)));
      },
    };
    return services;
  }, [catalogue, appInfo, organisationId, dispatch, navigate, t]);
  return { services, error: catalogueError ?? appInfoError };
}
