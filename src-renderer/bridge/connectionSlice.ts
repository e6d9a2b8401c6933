import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ConnectionState } from './transport';

/** The health of the line to the app core, for the "reconnecting" notice. */
export const connectionSlice = createSlice({
  name: 'connection',
  initialState: { state: 'connecting' as ConnectionState },
  reducers: {
    connectionChanged(slice, action: PayloadAction<ConnectionState>) {
      slice.state = action.payload;
    },
  },
});

export const { connectionChanged } = connectionSlice.actions;
