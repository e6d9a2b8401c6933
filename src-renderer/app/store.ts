import { configureStore } from '@reduxjs/toolkit';
import type { Bridge } from '../../src-shared/ipc/channels';
import { api } from '../api/api';
import type { StoreExtra } from '../api/baseQuery';
import { connectionSlice } from '../bridge/connectionSlice';
import { ledgerSlice } from '../features/ledger/ledgerSlice';

export function createAppStore(bridge: Bridge) {
  const extra: StoreExtra = { bridge };
  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      [connectionSlice.name]: connectionSlice.reducer,
      [ledgerSlice.name]: ledgerSlice.reducer,
    },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
