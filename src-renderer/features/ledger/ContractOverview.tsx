import { useEffect, useState } from 'react';
import { Button, Callout, Collapse, NonIdealState, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useContractPageQuery, useContractStatisticsQuery } from '../../api/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { errorText } from '../../i18n/errorText';
import { openRoute } from '../contracts/openRoute';
import { LedgerFilters } from './LedgerFilters';
import { contractPageRequest, filtersReset, pageChanged, pageSizeChanged, tabChanged } from './ledgerSlice';
import { LedgerTable } from './LedgerTable';
import { Pager } from './Pager';
import { pageCount } from './paging';
import { StatusTabs } from './StatusTabs';
import { FullTextSearch } from '../search/FullTextSearch';
import { TransferAction, useContractSelection } from '../transfer/TransferDialog';

/** The ledger's contracts tab: status tabs with counts, search, filters, the contracts' table with their actions, pager. */
export function ContractOverview() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const ledger = useAppSelector((state) => state.ledger);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const selection = useContractSelection();
  const { data: statistics } = useContractStatisticsQuery();
  // `data` keeps the previous page on screen while the next one loads; `currentData` is this page's.
  const { data: page, currentData, error, isFetching } = useContractPageQuery(contractPageRequest(ledger));

  // The page asked for can be gone by the time it is read (fewer contracts now): show the last one.
  const lastPage = currentData ? pageCount(currentData.count, ledger.pageSize) : null;
  useEffect(() => {
    if (lastPage !== null && ledger.pageNum > lastPage) dispatch(pageChanged(lastPage));
  }, [dispatch, lastPage, ledger.pageNum]);

  const filtered = ledger.q !== '';
  let body;
  if (error) {
    body = (
      <Callout intent="danger" icon="error" title={t('ledger.loadFailed')} role="alert">
        {errorText(t, error)}
      </Callout>
    );
  } else if (!page) {
    body = <Spinner className="ledger__loading" />;
  } else if (page.count === 0) {
    body = (
      <div className="ledger__empty" data-testid="ledger-empty">
        <NonIdealState
          icon={filtered ? 'search' : 'document'}
          title={filtered ? t('ledger.emptyFiltered') : t('ledger.empty')}
          action={filtered ? <Button text={t('ledger.reset')} onClick={() => dispatch(filtersReset())} /> : undefined}
        />
      </div>
    );
  } else {
    body = (
      <>
        <LedgerTable contracts={page.list} stale={isFetching} selection={selection} />
        <Pager
          pageNum={ledger.pageNum}
          pageSize={ledger.pageSize}
          total={page.count}
          onPageChange={(pageNum) => dispatch(pageChanged(pageNum))}
          onPageSizeChange={(pageSize) => dispatch(pageSizeChanged(pageSize))}
        />
      </>
    );
  }

  return (
    <section className="ledger" data-testid="ledger">
      <div className="ledger__header" data-testid="ledger-header">
        <StatusTabs selected={ledger.status} statistics={statistics} onChange={(status) => dispatch(tabChanged(status))} />
        <div className="ledger__actions">
          <FullTextSearch />
          <TransferAction selection={selection} />
          <Button
            data-testid="ledger-create"
            icon="add"
            intent="primary"
            text={t('contracts.create')}
            onClick={() => openRoute(`/standingBook/create?${new URLSearchParams({ mode: 'contract' })}`, (to) => void navigate(to), { newWindow: true })}
          />
          <Button
            data-testid="ledger-filter-toggle"
            icon="filter"
            variant="minimal"
            intent={filtered ? 'primary' : 'none'}
            active={filtersOpen}
            aria-expanded={filtersOpen}
            text={t('ledger.filters')}
            onClick={() => setFiltersOpen((open) => !open)}
          />
        </div>
      </div>
      <Collapse isOpen={filtersOpen}>
        <LedgerFilters />
      </Collapse>
      {body}
    </section>
  );
}
