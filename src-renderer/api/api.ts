import { createApi, type EndpointBuilder } from '@reduxjs/toolkit/query/react';
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { ChannelRequest, ChannelResponse, SessionInfo } from '../../src-shared/ipc/channels';
import { toAppError } from '../../src-shared/errors';
import { bridgeBaseQuery, call, type StoreExtra } from './baseQuery';

export const tagTypes = ['AppInfo', 'Settings', 'Session', 'Contract', 'Sync', 'Catalogue', 'ContractDetail', 'NumberNotice', 'ContractTasks', 'Template', 'Directory', 'Scene', 'LedgerSearch', 'CachedRead', 'Reminder'] as const;

// Mutations whose answer is the new state of a cached query write it straight into the cache:
// no second round trip, and the screen changes the moment the core answers.
async function onFulfilled<T>(queryFulfilled: Promise<{ data: T }>, apply: (data: T) => void) {
  try {
    apply((await queryFulfilled).data);
  } catch {
    // The failure is the caller's to show (it holds the mutation result).
  }
}

type ProblemChannel = 'sync.dismiss' | 'sync.keepTheirs' | 'sync.applyMineAgain';

/** A sync problem settled by the user: the answer is the new sync status. */
function settleProblem(build: EndpointBuilder<typeof bridgeBaseQuery, (typeof tagTypes)[number], 'api'>, channel: ProblemChannel) {
  return build.mutation<ChannelResponse<ProblemChannel>, ChannelRequest<ProblemChannel>>({
    query: (request) => call(channel, request),
    onQueryStarted: (_, { dispatch, queryFulfilled }) => onFulfilled(queryFulfilled, (status) => dispatch(syncStatusReceived(status))),
  });
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery: bridgeBaseQuery,
  tagTypes,
  endpoints: (build) => ({
    appInfo: build.query<ChannelResponse<'app.info'>, void>({
      query: () => call('app.info', {}),
      providesTags: ['AppInfo'],
    }),
    pageLanguage: build.mutation<ChannelResponse<'app.pageLanguage'>, ChannelRequest<'app.pageLanguage'>>({
      query: (request) => call('app.pageLanguage', request),
    }),
    settings: build.query<ChannelResponse<'settings.get'>, void>({
      query: () => call('settings.get', {}),
      providesTags: ['Settings'],
    }),
    updateSettings: build.mutation<ChannelResponse<'settings.update'>, ChannelRequest<'settings.update'>>({
      query: (request) => call('settings.update', request),
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        onFulfilled(queryFulfilled, (settings) =>
          dispatch(api.util.upsertQueryEntries([{ endpointName: 'settings', arg: undefined, value: settings }])),
        ),
    }),
    session: build.query<ChannelResponse<'session.get'>, void>({
      query: () => call('session.get', {}),
      providesTags: ['Session'],
    }),
    signIn: build.mutation<ChannelResponse<'session.signIn'>, ChannelRequest<'session.signIn'>>({
      query: (request) => call('session.signIn', request),
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        onFulfilled(queryFulfilled, (session) => dispatch(sessionReceived(session))),
    }),
    unlock: build.mutation<ChannelResponse<'session.unlock'>, ChannelRequest<'session.unlock'>>({
      query: (request) => call('session.unlock', request),
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        onFulfilled(queryFulfilled, (session) => dispatch(sessionReceived(session))),
    }),
    contractStatistics: build.query<ChannelResponse<'ledger.contractStatistics'>, void>({
      query: () => call('ledger.contractStatistics', {}),
      providesTags: ['Contract'],
    }),
    contractPage: build.query<ChannelResponse<'ledger.contractPage'>, ChannelRequest<'ledger.contractPage'>>({
      query: (request) => call('ledger.contractPage', request),
      providesTags: ['Contract'],
    }),
    syncStatus: build.query<ChannelResponse<'sync.status'>, void>({
      query: () => call('sync.status', {}),
      providesTags: ['Sync'],
    }),
    syncNow: build.mutation<ChannelResponse<'sync.now'>, void>({
      query: () => call('sync.now', {}),
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        onFulfilled(queryFulfilled, (status) => dispatch(syncStatusReceived(status))),
    }),
    // The core answers an edit at once from the replica and announces it with 'data.changed'
    // and 'sync.statusChanged', which refresh the ledger and the sync status.
    updateContract: build.mutation<ChannelResponse<'contract.update'>, ChannelRequest<'contract.update'>>({
      query: (request) => call('contract.update', request),
    }),
    // Contract drafting (issue 6). The catalogue and templates are kept by the core for offline
    // drafting; saves go to the replica and the outbox, announced by 'data.changed'.
    draftingCatalogue: build.query<ChannelResponse<'drafting.catalogue'>, void>({
      query: () => call('drafting.catalogue', {}),
      providesTags: ['Catalogue'],
    }),
    refreshCatalogue: build.mutation<ChannelResponse<'drafting.refresh'>, void>({
      query: () => call('drafting.refresh', {}),
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        onFulfilled(queryFulfilled, (catalogue) =>
          dispatch(api.util.upsertQueryEntries([{ endpointName: 'draftingCatalogue', arg: undefined, value: catalogue }])),
        ),
    }),
    template: build.query<ChannelResponse<'drafting.template'>, string>({
      query: (id) => call('drafting.template', { id }),
      providesTags: ['Catalogue'],
    }),
    searchParties: build.query<ChannelResponse<'drafting.searchParties'>, ChannelRequest<'drafting.searchParties'>>({
      query: (request) => call('drafting.searchParties', request),
      providesTags: ['Catalogue'],
    }),
    contractDetail: build.query<ChannelResponse<'contract.detail'>, string>({
      query: (id) => call('contract.detail', { id }),
      providesTags: (_result, _error, id) => [{ type: 'ContractDetail', id }],
    }),
    // Any contract's change may add to or change a counterparty's history: every 'data.changed'
    // of contracts refreshes it (the 'Contract' tag).
    contractCooperation: build.query<ChannelResponse<'contract.cooperation'>, string>({
      query: (id) => call('contract.cooperation', { id }),
      providesTags: ['Contract'],
    }),
    // Refetched when the contract changes (an alteration synced) and when the core comes back.
    contractHistory: build.query<ChannelResponse<'contract.alterations'>, string>({
      query: (id) => call('contract.alterations', { id }),
      providesTags: (_result, _error, id) => [{ type: 'ContractDetail', id }],
    }),
    // The performance tab (issue 13): refetched when tasks, plans or contracts change ('data.changed').
    contractPerformance: build.query<ChannelResponse<'fulfilment.contract'>, string>({
      query: (contractId) => call('fulfilment.contract', { contractId }),
      providesTags: ['ContractTasks'],
    }),
    /** A task id, or a task with the others of its batch. */
    finishForm: build.query<ChannelResponse<'fulfilment.finishForm'>, string | ChannelRequest<'fulfilment.finishForm'>>({
      query: (request) => call('fulfilment.finishForm', typeof request === 'string' ? { taskId: request } : request),
      providesTags: ['ContractTasks'],
    }),
    relateCandidates: build.query<ChannelResponse<'fulfilment.relateCandidates'>, string>({
      query: (taskId) => call('fulfilment.relateCandidates', { taskId }),
      providesTags: ['ContractTasks'],
    }),
    relateTask: build.mutation<ChannelResponse<'fulfilment.relate'>, ChannelRequest<'fulfilment.relate'>>({
      query: (request) => call('fulfilment.relate', request),
    }),
    unrelateTask: build.mutation<ChannelResponse<'fulfilment.unrelate'>, ChannelRequest<'fulfilment.unrelate'>>({
      query: (request) => call('fulfilment.unrelate', request),
    }),
    finishTask: build.mutation<ChannelResponse<'fulfilment.finish'>, ChannelRequest<'fulfilment.finish'>>({
      query: (request) => call('fulfilment.finish', request),
    }),
    finishTasks: build.mutation<ChannelResponse<'fulfilment.finishBatch'>, ChannelRequest<'fulfilment.finishBatch'>>({
      query: (request) => call('fulfilment.finishBatch', request),
    }),
    restoreTask: build.mutation<ChannelResponse<'fulfilment.restoreTask'>, ChannelRequest<'fulfilment.restoreTask'>>({
      query: (request) => call('fulfilment.restoreTask', request),
    }),
    deleteQuickTask: build.mutation<ChannelResponse<'fulfilment.deleteQuickTask'>, ChannelRequest<'fulfilment.deleteQuickTask'>>({
      query: (request) => call('fulfilment.deleteQuickTask', request),
    }),
    deletePlanTask: build.mutation<ChannelResponse<'fulfilment.deleteTask'>, ChannelRequest<'fulfilment.deleteTask'>>({
      query: (request) => call('fulfilment.deleteTask', request),
    }),
    savePlan: build.mutation<ChannelResponse<'fulfilment.savePlan'>, ChannelRequest<'fulfilment.savePlan'>>({
      query: (request) => call('fulfilment.savePlan', request),
    }),
    deletePlan: build.mutation<ChannelResponse<'fulfilment.deletePlan'>, ChannelRequest<'fulfilment.deletePlan'>>({
      query: (request) => call('fulfilment.deletePlan', request),
    }),
    createPlan: build.mutation<ChannelResponse<'fulfilment.createPlan'>, ChannelRequest<'fulfilment.createPlan'>>({
      query: (request) => call('fulfilment.createPlan', request),
    }),
    createContract: build.mutation<ChannelResponse<'contract.create'>, ChannelRequest<'contract.create'>>({
      query: (request) => call('contract.create', request),
    }),
    saveContractForm: build.mutation<ChannelResponse<'contract.saveForm'>, ChannelRequest<'contract.saveForm'>>({
      query: (request) => call('contract.saveForm', request),
    }),
    alterContract: build.mutation<ChannelResponse<'contract.alter'>, ChannelRequest<'contract.alter'>>({
      query: (request) => call('contract.alter', request),
    }),
    // Approval steps (spec 4). A contract's is queued like every edit ('data.changed' refreshes
    // the page); a template's is online only, and its answer is the template after the step.
    approvalStep: build.mutation<ChannelResponse<'contract.approvalStep'>, ChannelRequest<'contract.approvalStep'>>({
      query: (request) => call('contract.approvalStep', request),
    }),
    templateList: build.query<ChannelResponse<'template.list'>, ChannelRequest<'template.list'>>({
      query: (request) => call('template.list', request),
      providesTags: ['Template'],
    }),
    templateOnline: build.query<ChannelResponse<'template.detail'>, string>({
      query: (id) => call('template.detail', { id }),
      providesTags: ['Template'],
    }),
    templateApprovalStep: build.mutation<ChannelResponse<'template.approvalStep'>, ChannelRequest<'template.approvalStep'>>({
      query: (request) => call('template.approvalStep', request),
      // The templates screen reads its lists through cached reads.
      invalidatesTags: ['Template', 'CachedRead'],
    }),
    numberNotices: build.query<ChannelResponse<'contract.numberNotices'>, void>({
      query: () => call('contract.numberNotices', {}),
      providesTags: ['NumberNotice'],
    }),
    dismissNumberNotice: build.mutation<ChannelResponse<'contract.dismissNumberNotice'>, ChannelRequest<'contract.dismissNumberNotice'>>({
      query: (request) => call('contract.dismissNumberNotice', request),
      onQueryStarted: (_, { dispatch, queryFulfilled }) =>
        onFulfilled(queryFulfilled, (notices) =>
          dispatch(api.util.upsertQueryEntries([{ endpointName: 'numberNotices', arg: undefined, value: notices }])),
        ),
    }),
    onlineCall: build.mutation<ChannelResponse<'online.call'>, ChannelRequest<'online.call'>>({
      query: (request) => call('online.call', request),
    }),
    // Users and departments for the people and department fields, read once per screen visit.
    directory: build.query<ChannelResponse<'directory.get'>, void>({
      query: () => call('directory.get', {}),
      providesTags: ['Directory'],
    }),
    // A management screen's server read, or the kept answer offline (see src-shared/ipc/cached-reads.ts).
    cachedRead: build.query<ChannelResponse<'cached.read'>, ChannelRequest<'cached.read'>>({
      query: (request) => call('cached.read', request),
      providesTags: ['CachedRead'],
    }),
    // Inner or outer counterparties, a page; offline the kept ones "as of" their time (issue 15).
    counterpartyList: build.query<ChannelResponse<'counterparties.list'>, ChannelRequest<'counterparties.list'>>({
      query: (request) => call('counterparties.list', request),
      providesTags: ['CachedRead'],
    }),
    dismissProblem: settleProblem(build, 'sync.dismiss'),
    keepTheirs: settleProblem(build, 'sync.keepTheirs'),
    applyMineAgain: settleProblem(build, 'sync.applyMineAgain'),
  }),
});

type ApiState = { api: ReturnType<typeof api.reducer> };
type ApiThunk = ThunkAction<void, ApiState, unknown, UnknownAction>;

/** A new session from the core (a sign-in/out answer or a 'session.changed' event). */
export function sessionReceived(session: SessionInfo): ApiThunk {
  return (dispatch, getState) => {
    const current = api.endpoints.session.select()(getState()).data;
    // Leaving a signed-in user drops every cached answer, so the next user never sees theirs; so
    // does the offline lock closing, so nothing of the user's data stays behind the lock screen.
    const left = current?.signedIn && !(session.signedIn && session.user.id === current.user.id);
    const locked = current?.signedIn && !current.locked && session.signedIn && session.locked;
    if (left || locked) {
      dispatch(api.util.resetApiState());
    }
    dispatch(api.util.upsertQueryEntries([{ endpointName: 'session', arg: undefined, value: session }]));
  };
}

/**
 * Signs out. Not an RTK Query mutation: leaving the user resets the api state (sessionReceived),
 * and a reset aborts every request pending in it — the sign-out's own, whose 'session.changed'
 * event arrives before its answer, included (it failed as 'Aborted').
 */
export function signOut(): ThunkAction<Promise<void>, ApiState, StoreExtra, UnknownAction> {
  return async (dispatch, _getState, { bridge }) => {
    const result = await bridge.invoke('session.signOut', {}).catch((cause: unknown) => ({ ok: false as const, error: toAppError(cause) }));
    if (!result.ok) throw result.error;
    dispatch(sessionReceived(result.data));
  };
}

export function syncStatusReceived(status: ChannelResponse<'sync.status'>) {
  return api.util.upsertQueryEntries([{ endpointName: 'syncStatus', arg: undefined, value: status }]);
}

export const {
  useAppInfoQuery,
  usePageLanguageMutation,
  useSettingsQuery,
  useUpdateSettingsMutation,
  useSessionQuery,
  useSignInMutation,
  useUnlockMutation,
  useContractStatisticsQuery,
  useContractPageQuery,
  useSyncStatusQuery,
  useSyncNowMutation,
  useUpdateContractMutation,
  useDismissProblemMutation,
  useKeepTheirsMutation,
  useApplyMineAgainMutation,
  useDraftingCatalogueQuery,
  useRefreshCatalogueMutation,
  useTemplateQuery,
  useContractDetailQuery,
  useContractPerformanceQuery,
  useFinishFormQuery,
  useRelateCandidatesQuery,
  useRelateTaskMutation,
  useUnrelateTaskMutation,
  useFinishTaskMutation,
  useFinishTasksMutation,
  useRestoreTaskMutation,
  useDeleteQuickTaskMutation,
  useDeletePlanTaskMutation,
  useSavePlanMutation,
  useCreatePlanMutation,
  useDeletePlanMutation,
  useContractCooperationQuery,
  useContractHistoryQuery,
  useCreateContractMutation,
  useSaveContractFormMutation,
  useAlterContractMutation,
  useApprovalStepMutation,
  useTemplateListQuery,
  useTemplateOnlineQuery,
  useTemplateApprovalStepMutation,
  useNumberNoticesQuery,
  useDismissNumberNoticeMutation,
  useCachedReadQuery,
  useCounterpartyListQuery,
} = api;
