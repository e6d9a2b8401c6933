import { useState } from 'react';
import { Button, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../app/LinkButton';
import { formatDay } from '../../i18n/format';
import { Pager } from '../ledger/Pager';
import { ReadState } from '../manage/ReadState';
import { SearchBox } from '../manage/SearchBox';
import { useServerRead } from '../manage/serverData';
import { usePaging } from '../manage/usePaging';
import { IpImportDialog } from './IpImportDialog';
import { ipLabels } from './ipLabels';

/** The register of rights: search and pages; a right opens its page. */
export function RightsPanel() {
  const { t, i18n } = useTranslation();
  const labels = ipLabels(t);
  const paging = usePaging();
  const { answer, error } = useServerRead('ipList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q } });
  const [importing, setImporting] = useState(false);
  const day = (value: string | null) => (value ? formatDay(value, i18n.language) : '--');

  return (
    <div className="manage" data-testid="ip-rights">
      <div className="manage__header">
        <SearchBox placeholder={t('manage.ip.searchRights')} onSearch={paging.search} testId="ip-search" />
        <Button icon="import" intent="primary" text={t('manage.ip.import.open')} onClick={() => setImporting(true)} data-testid="ip-import" />
      </div>
      <ReadState answer={answer} error={error}>
        {(page) =>
          page.count === 0 ? (
            <NonIdealState icon="lightbulb" title={t('manage.ip.noRights')} />
          ) : (
            <>
              <div className="manage__table">
                <HTMLTable compact striped>
                  <thead>
                    <tr>
                      <th>{t('manage.ip.name')}</th>
                      <th>{t('manage.ip.type')}</th>
                      <th>{t('manage.ip.registrationNumber')}</th>
                      <th>{t('manage.ip.owner')}</th>
                      <th>{t('manage.ip.status')}</th>
                      <th>{t('manage.ip.expirationDate')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.list.map((right) => (
                      <tr key={right.id} data-testid="ip-row">
                        <td className="manage__text">
                          <LinkButton to={`/ip/${right.id}`} variant="minimal" intent="primary" text={right.name} />
                        </td>
                        <td>{labels.type(right.type)}</td>
                        <td>{right.registrationNumber}</td>
                        <td className="manage__text">{right.ownerOrganizationName}</td>
                        <td>{labels.status(right.status)}</td>
                        <td>{day(right.expirationDate)}</td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </div>
              <Pager pageNum={paging.pageNum} pageSize={paging.pageSize} total={page.count} onPageChange={paging.setPageNum} onPageSizeChange={paging.setPageSize} />
            </>
          )
        }
      </ReadState>
      {importing && <IpImportDialog onClose={() => setImporting(false)} />}
    </div>
  );
}
