import { describe, expect, it } from 'vitest';
import { pageCount, pageItems } from '../../src-renderer/features/ledger/paging';
import {
  contractPageRequest,
  filtersReset,
  initialLedgerState,
  keywordTyped,
  ledgerSlice,
  pageChanged,
  pageSizeChanged,
  searched,
  tabChanged,
  type LedgerState,
} from '../../src-renderer/features/ledger/ledgerSlice';
import { api } from '../../src-renderer/api/api';

const reduce = (state: LedgerState, ...actions: Parameters<typeof ledgerSlice.reducer>[1][]) =>
  actions.reduce(ledgerSlice.reducer, state);

describe('pager arithmetic', () => {
  it('counts pages, with page 1 of 1 for an empty list', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(137, 5)).toBe(28);
  });

  it('shows every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows first, last and the neighbours of the current page, with gaps', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 'gap', 10]);
    expect(pageItems(6, 10)).toEqual([1, 'gap', 5, 6, 7, 'gap', 10]);
    expect(pageItems(10, 10)).toEqual([1, 'gap', 9, 10]);
  });

  it('never hides a single page behind a gap', () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 'gap', 10]);
  });
});

describe('ledger filters', () => {
  const filtered = reduce(initialLedgerState, tabChanged(2), pageSizeChanged(50), keywordTyped(' lease '), searched(), pageChanged(3));

  it('searches the trimmed keyword from page 1', () => {
    const state = reduce(initialLedgerState, pageChanged(4), keywordTyped(' lease '), searched());
    expect(state).toMatchObject({ keyword: ' lease ', q: 'lease', pageNum: 1 });
  });

  it('changing the tab resets the filters and goes back to page 1, keeping the page size', () => {
    expect(filtered).toMatchObject({ status: 2, q: 'lease', pageNum: 3, pageSize: 50 });
    expect(reduce(filtered, tabChanged(null))).toEqual({ ...initialLedgerState, pageSize: 50 });
    expect(reduce(filtered, tabChanged(5))).toEqual({ ...initialLedgerState, status: 5, pageSize: 50 });
  });

  it('reset clears the keyword and goes back to page 1', () => {
    expect(reduce(filtered, filtersReset())).toMatchObject({ status: 2, keyword: '', q: '', pageNum: 1 });
  });

  it('changing the page size goes back to page 1', () => {
    expect(reduce(filtered, pageSizeChanged(10))).toMatchObject({ pageSize: 10, pageNum: 1 });
  });

  it('a sign-out (api reset) forgets the filters', () => {
    expect(reduce(filtered, api.util.resetApiState())).toEqual(initialLedgerState);
  });

  it('asks for the newest changes first', () => {
    expect(contractPageRequest(filtered)).toEqual({
      status: 2,
      q: 'lease',
      pageNum: 3,
      pageSize: 50,
      sort: { field: 'updateTime', order: 'desc' },
    });
  });
});
