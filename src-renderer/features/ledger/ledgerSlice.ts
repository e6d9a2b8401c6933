import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ContractStatus, LedgerPageSize } from '../../../src-shared/domain/enums';
import { defaultLedgerPageSize } from '../../../src-shared/domain/enums';
import type { LedgerContractPageRequest } from '../../../src-shared/ipc/channels';
import { api } from '../../api/api';

export interface LedgerState {
  /** null is the 'all' tab. */
  status: ContractStatus | null;
  /** The keyword as typed in the filter drawer; `q` is the one searched for. */
  keyword: string;
  q: string;
  pageNum: number;
  pageSize: LedgerPageSize;
}

export const initialLedgerState: LedgerState = {
  status: null,
  keyword: '',
  q: '',
  pageNum: 1,
  pageSize: defaultLedgerPageSize,
};

export const ledgerSlice = createSlice({
  name: 'ledger',
  initialState: initialLedgerState,
  reducers: {
    /** Spec 4: changing the tab resets the filters and reloads from page 1 (the page size stays). */
    tabChanged: (state, action: PayloadAction<ContractStatus | null>) => ({
      ...initialLedgerState,
      status: action.payload,
      pageSize: state.pageSize,
    }),
    keywordTyped(state, action: PayloadAction<string>) {
      state.keyword = action.payload;
    },
    searched(state) {
      state.q = state.keyword.trim();
      state.pageNum = 1;
    },
    filtersReset(state) {
      state.keyword = '';
      state.q = '';
      state.pageNum = 1;
    },
    pageChanged(state, action: PayloadAction<number>) {
      state.pageNum = Math.max(1, Math.trunc(action.payload));
    },
    pageSizeChanged(state, action: PayloadAction<LedgerPageSize>) {
      state.pageSize = action.payload;
      state.pageNum = 1;
    },
  },
  // Filters belong to the user who set them: a sign-out (which resets the api cache) clears them.
  extraReducers: (builder) => builder.addMatcher(api.util.resetApiState.match, () => initialLedgerState),
});

export const { tabChanged, keywordTyped, searched, filtersReset, pageChanged, pageSizeChanged } = ledgerSlice.actions;

/** The ledger page request for the current filters, newest changes first. */
export function contractPageRequest({ status, q, pageNum, pageSize }: LedgerState): LedgerContractPageRequest {
  return { status, q, pageNum, pageSize, sort: { field: 'updateTime', order: 'desc' } };
}
