import './counterparties.css';
import { Button, HTMLTable, InputGroup, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Counterparty } from '../../../src-shared/api/counterparties';
import { PartyType, type LedgerPageSize } from '../../../src-shared/domain/enums';
import { formatMoney } from '../../../src-shared/domain/money';
import { showsPartyDetailLink } from '../../../src-shared/form/parties';
import type { CounterpartyRow } from '../../../src-shared/ipc/counterparties';
import { partyDetailRoute } from '../../../src-shared/routes';
import { useAppInfoQuery, useCounterpartyListQuery } from '../../api/api';
import { showFailure } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import { formatDateTime } from '../../i18n/format';
import { toAppError } from '../../../src-shared/errors';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedFetch } from '../cached-reads/useCachedRead';
import { openRoute } from '../contracts/openRoute';
import { ScreenState } from '../contracts/ScreenState';
import { Pager } from '../ledger/Pager';
import { CounterpartyDialog } from './CounterpartyDialog';

// The counterparty lists (issue 15, spec 3 "List columns"): inner and outer parties, searched and
// paged by the server, or the kept ones offline "as of" their time. Create and edit are online only.

type Editing = { party: Counterparty | null } | null;

export function CounterpartiesScreen() {
  const { t } = useTranslation();
  const [type, setType] = useState<PartyType>(PartyType.Inner);
  return (
    <section className="counterparties-screen" aria-label={t('counterparties.title')}>
      <h2 className="screen-title">{t('counterparties.title')}</h2>
      <Tabs id="counterparty-types" animate={false} selectedTabId={type} onChange={(id) => setType(Number(id) as PartyType)}>
        <Tab id={PartyType.Inner} title={t('counterparties.inner')} data-testid="tab-inner" />
        <Tab id={PartyType.Outer} title={t('counterparties.outer')} data-testid="tab-outer" />
      </Tabs>
      <CounterpartyList key={type} type={type} />
    </section>
  );
}

function CounterpartyList({ type }: { type: PartyType }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [pageSize, setPageSize] = useState<LedgerPageSize>(20);
  const [editing, setEditing] = useState<Editing>(null);
  const readParty = useCachedFetch();
  const { data, error, isFetching } = useCounterpartyListQuery({ type, q, pageNum, pageSize }, { refetchOnMountOrArgChange: true });
  const { data: appInfo } = useAppInfoQuery();
  const outer = type === PartyType.Outer;
  const detailLink = outer && appInfo !== undefined && showsPartyDetailLink(appInfo.organizationShare);
  const dash = (text: string | null | undefined) => text || '--';
  const ratings = t('creditRating', { returnObjects: true });

  async function edit(row: CounterpartyRow) {
    try {
      setEditing({ party: (await readParty('counterpartyGet', { params: { id: row.id } })).value });
    } catch (failure) {
      showFailure(errorText(t, toAppError(failure)));
    }
  }

  /**
   * `wrap`: an address or bank wraps; every other value (codes, numbers, times) is read and copied
   * whole. An external party's credit rating and risk count come first after its name: the table
   * scrolls sideways at 1280 px and they are what the list is read for (issue 31).
   */
  const columns: { key: string; label: string; wrap?: boolean; cell: (row: CounterpartyRow) => string }[] = [
    ...(outer
      ? [
          { key: 'rating', label: t('counterparties.columns.rating'), cell: (row: CounterpartyRow) => (row.rating === null ? '--' : ratings[row.rating]) },
          { key: 'riskCount', label: t('counterparties.columns.riskCount'), cell: (row: CounterpartyRow) => dash(row.riskCount?.toString()) },
        ]
      : []),
    { key: 'idNumber', label: t('counterparties.columns.idNumber'), cell: (row) => dash(row.idNumber) },
    { key: 'address', label: t('counterparties.columns.address'), wrap: true, cell: (row) => dash(row.address) },
    { key: 'bank', label: t('counterparties.columns.bank'), wrap: true, cell: (row) => dash(row.bank) },
    { key: 'account', label: t('counterparties.columns.account'), cell: (row) => dash(row.account) },
    { key: 'updater', label: t('counterparties.columns.updater'), cell: (row) => dash(row.updaterName) },
    { key: 'updateTime', label: t('counterparties.columns.updateTime'), cell: (row) => (row.updateTime ? formatDateTime(row.updateTime, i18n.language) : '--') },
    ...(outer
      ? [
          { key: 'cooperationCount', label: t('counterparties.columns.cooperationCount'), cell: (row: CounterpartyRow) => dash(row.cooperationCount?.toString()) },
          { key: 'totalAmount', label: t('counterparties.columns.totalAmount'), cell: (row: CounterpartyRow) => (row.totalAmount?.length ? row.totalAmount.map(formatMoney).join(t('contractForm.listSeparator')) : '--') },
          { key: 'averageScore', label: t('counterparties.columns.averageScore'), cell: (row: CounterpartyRow) => dash(row.averageScore?.toFixed(1)) },
        ]
      : []),
  ];

  return (
    <div className="counterparty-list" data-testid={`counterparty-list-${type}`}>
      <div className="counterparty-list__toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          data-testid="counterparty-search"
          placeholder={t('counterparties.search')}
          aria-label={t('counterparties.search')}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPageNum(1);
          }}
        />
        {isFetching && <Spinner size={16} />}
        <Button intent="primary" icon="add" data-testid="counterparty-create" text={t('counterparties.create')} onClick={() => setEditing({ party: null })} />
      </div>
      <AsOfNote answer={data} testId="counterparties-as-of" />
      {!data ? (
        <ScreenState error={error} title={t('counterparties.title')} />
      ) : data.value.count === 0 ? (
        <NonIdealState icon="people" title={t(q ? 'counterparties.emptySearch' : 'counterparties.empty')} />
      ) : (
        <>
          <div className="counterparty-list__scroll">
            <HTMLTable compact striped className="counterparty-table" data-testid="counterparty-table">
              <thead>
                <tr>
                  <th className="counterparty-table__name">{t('counterparties.columns.name')}</th>
                  {columns.map((column) => (
                    <th key={column.key}>{column.label}</th>
                  ))}
                  <th className="counterparty-table__actions">{t('counterparties.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {data.value.list.map((row) => (
                  <tr key={row.id} data-testid={`counterparty-row-${row.id}`}>
                    <td className="counterparty-table__name">
                      {detailLink ? (
                        <a
                          href={`${partyDetailRoute}?id=${row.id}`}
                          aria-label={t('counterparties.openDetail', { name: row.name })}
                          onClick={(event) => {
                            event.preventDefault();
                            openRoute(`${partyDetailRoute}?id=${row.id}`, (to) => void navigate(to), { newWindow: true });
                          }}
                        >
                          {row.name}
                        </a>
                      ) : (
                        row.name
                      )}
                    </td>
                    {columns.map((column) => (
                      <td key={column.key} className={column.wrap ? 'counterparty-table__text' : 'counterparty-table__whole'}>
                        {column.cell(row)}
                      </td>
                    ))}
                    <td className="counterparty-table__actions">
                      <Button size="small" variant="minimal" icon="edit" data-testid="counterparty-edit" aria-label={t('counterparties.edit')} title={t('counterparties.edit')} onClick={() => void edit(row)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <Pager
            pageNum={pageNum}
            pageSize={pageSize}
            total={data.value.count}
            onPageChange={setPageNum}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPageNum(1);
            }}
          />
        </>
      )}
      {editing && <CounterpartyDialog type={type} party={editing.party} onClose={() => setEditing(null)} />}
    </div>
  );
}
