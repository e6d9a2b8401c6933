import { useCallback, useMemo } from 'react';
import { endpoints, type EndpointBody, type EndpointResponse } from '../../../src-shared/api/endpoints';
import type { ChannelRequest } from '../../../src-shared/ipc/channels';
import type { ManageReadName, ManageReadResponse, ManageWriteName } from '../../../src-shared/ipc/manage';
import { api } from '../../api/api';
import { call } from '../../api/baseQuery';

// The management screens' server reads and writes through the core (src-shared/ipc/manage.ts),
// typed by endpoint: every answer is read with the endpoint's own response schema. A write
// refreshes the screens' reads.

const manageApi = api.enhanceEndpoints({ addTagTypes: ['Manage'] }).injectEndpoints({
  endpoints: (build) => ({
    manageRead: build.query<ManageReadResponse, ChannelRequest<'manage.read'>>({
      query: (request) => call('manage.read', request),
      providesTags: ['Manage'],
    }),
    manageWrite: build.mutation<unknown, ChannelRequest<'manage.write'>>({
      query: (request) => call('manage.write', request),
      invalidatesTags: ['Manage'],
    }),
  }),
});

type QueryValue = string | number | boolean | undefined;

export interface CallParts {
  params?: Record<string, string>;
  /** Undefined values are left out (an empty search is no search). */
  query?: Record<string, QueryValue>;
}

function definedQuery(query: Record<string, QueryValue> = {}): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== ''));
}

export interface ServerRead<N extends ManageReadName> {
  data: EndpointResponse<N>;
  fetchedAt: string;
  offline: boolean;
}

/** A server read the core keeps for offline reading: `offline` marks the kept answer "as of" `fetchedAt`. */
export function useServerRead<N extends ManageReadName>(endpoint: N, parts: CallParts = {}, options: { skip?: boolean } = {}) {
  const result = manageApi.useManageReadQuery({ endpoint, params: parts.params ?? {}, query: definedQuery(parts.query) }, options);
  const read = useMemo((): ServerRead<N> | undefined => {
    if (!result.data) return undefined;
    return { ...result.data, data: endpoints[endpoint].response.parse(result.data.data) as EndpointResponse<N> };
  }, [endpoint, result.data]);
  return { read, error: result.error, isFetching: result.isFetching };
}

/** A server write (online only): the endpoint's answer, or the refusal as the rejected AppError. */
export function useServerWrite() {
  const [trigger, state] = manageApi.useManageWriteMutation();
  const write = useCallback(
    async <N extends ManageWriteName>(endpoint: N, parts: CallParts & { body?: EndpointBody<N> } = {}): Promise<EndpointResponse<N>> => {
      const data = await trigger({ endpoint, params: parts.params ?? {}, query: definedQuery(parts.query), body: parts.body }).unwrap();
      return endpoints[endpoint].response.parse(data) as EndpointResponse<N>;
    },
    [trigger],
  );
  return { write, pending: state.isLoading };
}
