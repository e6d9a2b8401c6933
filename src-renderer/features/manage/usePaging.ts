import { useState } from 'react';
import { defaultLedgerPageSize, type LedgerPageSize } from '../../../src-shared/domain/enums';

/** A list's page and page size (spec 9: default 20, choices 5, 10, 20, 50); a new search starts at page 1. */
export function usePaging() {
  const [pageNum, setPageNum] = useState(1);
  const [pageSize, setSize] = useState<LedgerPageSize>(defaultLedgerPageSize);
  const [q, setQ] = useState('');
  return {
    pageNum,
    pageSize,
    q,
    setPageNum,
    setPageSize(size: LedgerPageSize) {
      setSize(size);
      setPageNum(1);
    },
    search(text: string) {
      setQ(text);
      setPageNum(1);
    },
  };
}

export type Paging = ReturnType<typeof usePaging>;
