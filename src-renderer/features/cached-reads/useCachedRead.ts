import { useCallback, useMemo } from 'react';
import { endpoints, type EndpointResponse } from '../../../src-shared/api/endpoints';
import type { AppError } from '../../../src-shared/errors';
import type { CachedAnswer, CachedReadName, CachedReadRequest } from '../../../src-shared/ipc/cached-reads';
import type { OnlineCallName } from '../../../src-shared/ipc/drafting';
import { api, useCachedReadQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';

// A management screen's reads and writes (issue 15): reads answer the server's data, or the kept
// data "as of" its time offline; writes go to the server or fail at once with 'offline', and a
// write that went through makes every cached read ask the server again.

type Answer<N extends CachedReadName> = CachedAnswer<EndpointResponse<N>>;

/** The answer checked against the endpoint's response schema on arrival; an unexpected one is a server error. */
function checkedAnswer<N extends CachedReadName>(endpoint: N, data: CachedAnswer<unknown> | undefined): { answer?: Answer<N>; error?: AppError } {
  if (!data) return {};
  const parsed = endpoints[endpoint].response.safeParse(data.value);
  if (!parsed.success) return { error: { code: 'server_error', message: `${endpoint}: ${parsed.error.issues[0]?.message ?? 'unexpected answer'}` } };
  return { answer: { ...data, value: parsed.data as EndpointResponse<N> } };
}

/** `pollingInterval` (ms) asks again while mounted, e.g. the dashboard's risk reminders every 10 minutes. */
export function useCachedRead<N extends CachedReadName>(request: CachedReadRequest & { endpoint: N }, options: { skip?: boolean; pollingInterval?: number } = {}) {
  const result = useCachedReadQuery(request, { skip: options.skip, pollingInterval: options.pollingInterval, refetchOnMountOrArgChange: true });
  const checked = useMemo(() => checkedAnswer(request.endpoint, result.data), [request.endpoint, result.data]);
  return {
    answer: checked.answer,
    error: checked.error ?? (result.error as AppError | undefined),
    isFetching: result.isFetching,
    refetch: result.refetch,
  };
}

/** A server-only write: its answer, or a failure ('offline' at once while the server is away). */
export function useOnlineWrite() {
  const dispatch = useAppDispatch();
  return useCallback(
    async <N extends OnlineCallName>(endpoint: N, request: { params?: Record<string, string>; query?: Record<string, string | number | boolean>; body?: unknown }) => {
      const data = await dispatch(
        api.endpoints.onlineCall.initiate({ endpoint, params: request.params ?? {}, query: request.query ?? {}, body: request.body }),
      ).unwrap();
      dispatch(api.util.invalidateTags(['CachedRead']));
      const parsed = endpoints[endpoint].response.safeParse(data);
      if (!parsed.success) throw { code: 'server_error', message: `${endpoint}: ${parsed.error.issues[0]?.message ?? 'unexpected answer'}` } satisfies AppError;
      return parsed.data as EndpointResponse<N>;
    },
    [dispatch],
  );
}

/** A cached read made on demand (e.g. the record an edit dialog opens with): the answer, or its failure. */
export function useCachedFetch() {
  const dispatch = useAppDispatch();
  return useCallback(
    async <N extends CachedReadName>(endpoint: N, request: { params?: Record<string, string>; query?: Record<string, string | number | boolean> }): Promise<Answer<N>> => {
      const data = await dispatch(
        api.endpoints.cachedRead.initiate({ endpoint, params: request.params ?? {}, query: request.query ?? {} }, { subscribe: false, forceRefetch: true }),
      ).unwrap();
      const checked = checkedAnswer(endpoint, data);
      if (!checked.answer) throw checked.error ?? ({ code: 'server_error', message: endpoint } satisfies AppError);
      return checked.answer;
    },
    [dispatch],
  );
}
