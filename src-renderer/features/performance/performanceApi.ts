import type { ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import { api } from '../../api/api';
import { call } from '../../api/baseQuery';

// The dashboard's reads and edits through the core. Tasks change with pulls and with queued
// edits of contracts or tasks, which 'data.changed' announces as these tags.
const taskTags = ['ContractTasks', 'Contract'] as const;

export const performanceApi = api.injectEndpoints({
  endpoints: (build) => ({
    taskStatistics: build.query<ChannelResponse<'performance.statistics'>, ChannelRequest<'performance.statistics'>>({
      query: (request) => call('performance.statistics', request),
      providesTags: [...taskTags],
    }),
    taskBoard: build.query<ChannelResponse<'performance.board'>, ChannelRequest<'performance.board'>>({
      query: (request) => call('performance.board', request),
      providesTags: [...taskTags],
    }),
    createQuickTask: build.mutation<ChannelResponse<'performance.quickTask'>, ChannelRequest<'performance.quickTask'>>({
      query: (request) => call('performance.quickTask', request),
      invalidatesTags: ['ContractTasks'],
    }),
    reminderSettings: build.query<ChannelResponse<'performance.reminderSettings'>, void>({
      query: () => call('performance.reminderSettings', {}),
    }),
    saveReminderSettings: build.mutation<ChannelResponse<'performance.saveReminderSettings'>, ChannelRequest<'performance.saveReminderSettings'>>({
      query: (request) => call('performance.saveReminderSettings', request),
    }),
  }),
});

export const { useTaskStatisticsQuery, useTaskBoardQuery, useCreateQuickTaskMutation, useReminderSettingsQuery, useSaveReminderSettingsMutation } = performanceApi;
