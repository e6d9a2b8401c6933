import type { UnknownAction } from '@reduxjs/toolkit';
import type { ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import type { AppReminder } from '../../../src-shared/ipc/reminders';
import { api } from '../../api/api';
import { call } from '../../api/baseQuery';

// The browser edition's reminder list, kept by the core: read once, then replaced by every
// 'reminders.changed' event and by the answer of each snooze or dismissal (the list after it).

export const remindersApi = api.injectEndpoints({
  endpoints: (build) => ({
    dueReminders: build.query<ChannelResponse<'reminders.list'>, void>({
      query: () => call('reminders.list', {}),
      // Refetched after a reconnection, when events may have been missed.
      providesTags: ['Reminder'],
    }),
    snoozeReminder: build.mutation<ChannelResponse<'reminders.snooze'>, ChannelRequest<'reminders.snooze'>>({
      query: (request) => call('reminders.snooze', request),
      onQueryStarted: (_, { dispatch, queryFulfilled }) => keepAnswer(queryFulfilled, dispatch),
    }),
    dismissReminder: build.mutation<ChannelResponse<'reminders.dismiss'>, ChannelRequest<'reminders.dismiss'>>({
      query: (request) => call('reminders.dismiss', request),
      onQueryStarted: (_, { dispatch, queryFulfilled }) => keepAnswer(queryFulfilled, dispatch),
    }),
  }),
});

/** The list as the core now has it. */
export function remindersReceived(reminders: AppReminder[]): UnknownAction {
  return remindersApi.util.upsertQueryEntries([{ endpointName: 'dueReminders', arg: undefined, value: reminders }]);
}

async function keepAnswer(answer: Promise<{ data: AppReminder[] }>, dispatch: (action: UnknownAction) => unknown) {
  try {
    dispatch(remindersReceived((await answer).data));
  } catch {
    // The failure is the caller's to show.
  }
}

export const { useDueRemindersQuery, useSnoozeReminderMutation, useDismissReminderMutation } = remindersApi;
