import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LinkButton } from '../../app/LinkButton';
import { formatDay } from '../../i18n/format';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead } from '../manage/serverData';
import { usePaging } from '../manage/usePaging';
import { IpEditDialog } from './IpDialogs';
import { IpImportDialog } from './IpImportDialog';
import { ipLabels } from './ipLabels';

/** The register of rights: search and pages, a new right or an import from a file; a right opens its page. */
export function RightsPanel() {
  const { t, i18n } = useTranslation();
  const labels = ipLabels(t);
  const paging = usePaging();
  const read = useServerRead('ipList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q } });
  const [open, setOpen] = useState<'import' | 'create' | null>(null);
  const navigate = useNavigate();
  const day = (value: string | null) => (value ? formatDay(value, i18n.language) : '--');

  return (
    <div className="manage" data-testid="ip-rights">
      <ListHeader search={{ placeholder: t('manage.ip.searchRights'), onSearch: paging.search, testId: 'ip-search' }}>
        <Button icon="add" intent="primary" text={t('manage.ip.createRight')} onClick={() => setOpen('create')} data-testid="ip-create" />
        <Button icon="import" text={t('manage.ip.import.open')} onClick={() => setOpen('import')} data-testid="ip-import" />
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
      {open === 'import' && <IpImportDialog onClose={() => setOpen(null)} />}
      {open === 'create' && <IpEditDialog right={null} onClose={() => setOpen(null)} onCreated={(created) => void navigate(`/ip/${created.id}`)} />}
    </div>
  );
}
