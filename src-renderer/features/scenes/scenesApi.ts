import type { ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import { api } from '../../api/api';
import { call } from '../../api/baseQuery';

// The ledger's scenes and search (issue 14), answered by the core from the replica. Scene edits
// are queued there; its 'data.changed' of scenes refreshes the list and the search.

type SceneEdit = 'scene.update' | 'scene.delete' | 'scene.reorder' | 'scene.setDefault';

export const scenesApi = api.injectEndpoints({
  endpoints: (build) => {
    const edit = <C extends SceneEdit>(channel: C) =>
      build.mutation<ChannelResponse<C>, ChannelRequest<C>>({ query: (request) => call(channel, request), invalidatesTags: ['Scene', 'LedgerSearch'] });
    return {
      scenes: build.query<ChannelResponse<'scene.list'>, void>({ query: () => call('scene.list', {}), providesTags: ['Scene'] }),
      ledgerFields: build.query<ChannelResponse<'ledger.fields'>, void>({ query: () => call('ledger.fields', {}), providesTags: ['Scene'] }),
      ledgerSearch: build.query<ChannelResponse<'ledger.search'>, ChannelRequest<'ledger.search'>>({
        query: (request) => call('ledger.search', request),
        providesTags: ['LedgerSearch'],
      }),
      createScene: build.mutation<ChannelResponse<'scene.create'>, ChannelRequest<'scene.create'>>({
        query: (request) => call('scene.create', request),
        invalidatesTags: ['Scene'],
      }),
      updateScene: edit('scene.update'),
      deleteScene: edit('scene.delete'),
      reorderScenes: edit('scene.reorder'),
      setDefaultScene: edit('scene.setDefault'),
    };
  },
});

export const {
  useScenesQuery,
  useLedgerFieldsQuery,
  useLedgerSearchQuery,
  useCreateSceneMutation,
  useUpdateSceneMutation,
  useDeleteSceneMutation,
  useReorderScenesMutation,
  useSetDefaultSceneMutation,
} = scenesApi;
