import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../app/LinkButton';
import { formatDay } from '../../i18n/format';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead } from '../manage/serverData';
import { usePaging } from '../manage/usePaging';
import { IpImportDialog } from './IpImportDialog';
import { ipLabels } from './ipLabels';

/** The register of rights: search and pages, import from a file; a right opens its page. */
export function RightsPanel() {
  const { t, i18n } = useTranslation();
  const labels = ipLabels(t);
  const paging = usePaging();
  const read = useServerRead('ipList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q } });
  const [importing, setImporting] = useState(false);
  const day = (value: string | null) => (value ? formatDay(value, i18n.language) : '--');

  return (
    <div className="manage" data-testid="ip-rights">
      <ListHeader search={{ placeholder: t('manage.ip.searchRights'), onSearch: paging.search, testId: 'ip-search' }}>
        <Button icon="import" intent="primary" text={t('manage.ip.import.open')} onClick={() => setImporting(true)} data-testid="ip-import" />
      </ListHeader>
      <ManagedList
        read={read}
        rows={(page) => page}
        paging={paging}
        empty={{ icon: 'lightbulb', title: t('manage.ip.noRights') }}
        rowKey={(right) => right.id}
        rowTestId="ip-row"
        columns={[
          { header: t('manage.ip.name'), wrap: true, cell: (right) => <LinkButton to={`/ip/${right.id}`} variant="minimal" intent="primary" text={right.name} /> },
          { header: t('manage.ip.type'), cell: (right) => labels.type(right.type) },
          { header: t('manage.ip.registrationNumber'), cell: (right) => right.registrationNumber },
          { header: t('manage.ip.owner'), wrap: true, cell: (right) => right.ownerOrganizationName },
          { header: t('manage.ip.status'), cell: (right) => labels.status(right.status) },
          { header: t('manage.ip.expirationDate'), cell: (right) => day(right.expirationDate) },
        ]}
      />
      {importing && <IpImportDialog onClose={() => setImporting(false)} />}
    </div>
  );
}
