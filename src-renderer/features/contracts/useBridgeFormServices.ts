import { useMemo } from 'react';
import type { SerializedError } from '@reduxjs/toolkit';
import { useNavigate } from 'react-router-dom';
import { endpoints } from '../../../src-shared/api/endpoints';
import type { AppError } from '../../../src-shared/errors';
import { api, useAppInfoQuery, useDraftingCatalogueQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import type { FormServices } from '../contract-form';
import { openRoute } from './openRoute';

/**
 * The form's services over the bridge (issue 6): party search over the kept counterparties,
 * server reads through 'online.call' (their answer checked against the endpoint's response schema
 * on arrival), the offline catalogue and the organisation-share flag. Undefined until the
 * catalogue and app info are read.
 */
export function useBridgeFormServices(): { services: FormServices | undefined; error: AppError | SerializedError | undefined } {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: catalogue, error: catalogueError } = useDraftingCatalogueQuery();
  const { data: appInfo, error: appInfoError } = useAppInfoQuery();
  const services = useMemo(() => {
    if (!catalogue || !appInfo) return undefined;
    const services: FormServices = {
      catalogue,
      organizationShare: appInfo.organizationShare,
      searchParties: (request) => dispatch(api.endpoints.searchParties.initiate(request, { subscribe: false })).unwrap(),
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
      // The core has no upload channel yet (files go to the server's multipart route, which the
      // renderer may not call itself): the upload field shows this as its failure.
      upload: () => Promise.reject<never>({ code: 'unknown_channel', message: 'file upload is not available in this app core' } satisfies AppError),
      openRoute: (path, options) => openRoute(path, (to) => void navigate(to), options),
    };
    return services;
  }, [catalogue, appInfo, dispatch, navigate]);
  return { services, error: catalogueError ?? appInfoError };
}
