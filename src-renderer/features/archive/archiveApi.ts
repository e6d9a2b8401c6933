import type { ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import { api } from '../../api/api';
import { call } from '../../api/baseQuery';

// The archive, full-text search and transfer calls (issue 14), added to the app's api here so the
// shared api file stays as it is. 'Archive' is refetched when a PDF's text joins the index.

const archiveApi = api.enhanceEndpoints({ addTagTypes: ['Archive'] }).injectEndpoints({
  endpoints: (build) => ({
    archivedFile: build.query<ChannelResponse<'archive.get'>, string>({
      query: (contractId) => call('archive.get', { contractId }),
      providesTags: (_result, _error, contractId) => [{ type: 'Archive', id: contractId }, { type: 'ContractDetail', id: contractId }],
    }),
    confirmArchive: build.mutation<ChannelResponse<'archive.confirm'>, ChannelRequest<'archive.confirm'>>({
      query: (request) => call('archive.confirm', request),
      invalidatesTags: (_result, _error, request) => [{ type: 'Archive', id: request.contractId }, 'Contract', 'ContractDetail'],
    }),
    archiveCacheUsage: build.query<ChannelResponse<'archive.cacheUsage'>, void>({
      query: () => call('archive.cacheUsage', {}),
      providesTags: ['Archive'],
    }),
    // Searches follow the replica (every contract change) and the index (every PDF read).
    fullTextSearch: build.query<ChannelResponse<'search.fullText'>, ChannelRequest<'search.fullText'>>({
      query: (request) => call('search.fullText', request),
      providesTags: ['Contract', 'Archive'],
    }),
    transferContracts: build.mutation<ChannelResponse<'contract.transfer'>, ChannelRequest<'contract.transfer'>>({
      query: (request) => call('contract.transfer', request),
      invalidatesTags: ['Contract', 'ContractDetail'],
    }),
  }),
});

export const { useArchivedFileQuery, useConfirmArchiveMutation, useArchiveCacheUsageQuery, useFullTextSearchQuery, useTransferContractsMutation } = archiveApi;
export const invalidateArchive = () => archiveApi.util.invalidateTags(['Archive']);
