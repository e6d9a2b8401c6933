import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { LinkButton } from '../../app/LinkButton';
import { formatDay } from '../../i18n/format';
import { DeleteAlert } from '../manage/DeleteAlert';
import { ListHeader, ManagedTable } from '../manage/ManagedList';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { IpEditDialog, RecordDialog, StatusDialog, TransferDialog, type IpDetail, type IpRecord } from './IpDialogs';
import { ipLabels } from './ipLabels';
import '../manage/manage.css';

type Open = { kind: 'edit' | 'delete' | 'status' | 'transfer' } | { kind: 'record'; record: IpRecord | null } | { kind: 'deleteRecord'; record: IpRecord };

/** A right's page (/ip/:id): its fields, status, owner and transfers, and its history entries. */
export function IpDetailPage() {
  const { id = '' } = useParams();
  const { answer, error } = useServerRead('ipGet', { params: { id } });
  return (
    <section className="manage" data-testid="ip-detail">
      <IpBack />
      <ReadState answer={answer} error={error}>
        {(right) => <IpDetailBody right={right} />}
      </ReadState>
    </section>
  );
}

function IpBack() {
  const { t } = useTranslation();
  return <LinkButton to="/ip" icon="arrow-left" variant="minimal" text={t('manage.ip.back')} className="manage__back" />;
}

function IpDetailBody({ right }: { right: IpDetail }) {
  const { t, i18n } = useTranslation();
  const labels = ipLabels(t);
  const navigate = useNavigate();
  const write = useServerWrite();
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const day = (value: string | null) => (value ? formatDay(value, i18n.language) : '--');
  const facts: [string, string][] = [
    [t('manage.ip.type'), labels.type(right.type)],
    [t('manage.ip.registrationNumber'), right.registrationNumber],
    [t('manage.ip.owner'), right.ownerOrganizationName],
    [t('manage.ip.status'), labels.status(right.status)],
    [t('manage.ip.applicationDate'), day(right.applicationDate)],
    [t('manage.ip.registrationDate'), day(right.registrationDate)],
    [t('manage.ip.expirationDate'), day(right.expirationDate)],
    [t('manage.ip.remark'), right.remark || '--'],
  ];

  return (
    <>
      <header className="manage__header">
        <h2 className="manage__title" data-testid="ip-name">
          {right.name}
        </h2>
        <Button icon="edit" text={t('manage.edit')} onClick={() => setOpen({ kind: 'edit' })} data-testid="ip-edit" />
        <Button icon="exchange" text={t('manage.ip.changeStatus')} onClick={() => setOpen({ kind: 'status' })} data-testid="ip-status" />
        {/* Only a filed or registered right changes hands (the server's rule). */}
        {(right.status === 'filed' || right.status === 'registered') && (
          <Button icon="swap-horizontal" text={t('manage.ip.transfer')} onClick={() => setOpen({ kind: 'transfer' })} data-testid="ip-transfer" />
        )}
        <Button icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setOpen({ kind: 'delete' })} data-testid="ip-delete" />
      </header>
      <dl className="manage__facts" data-testid="ip-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ListHeader title={t('manage.ip.records')} subtitle>
        <Button icon="add" text={t('manage.ip.addRecord')} onClick={() => setOpen({ kind: 'record', record: null })} data-testid="ip-add-record" />
      </ListHeader>
      <ManagedTable
        rows={right.records}
        emptyText={t('manage.ip.noRecords')}
        rowKey={(record) => record.id}
        rowTestId="ip-record"
        columns={[
          { header: t('manage.ip.recordDate'), cell: (record) => day(record.recordDate) },
          { header: t('manage.ip.recordKind'), cell: (record) => labels.recordKind(record.kind) },
          { header: t('manage.ip.recordTitle'), wrap: true, cell: (record) => record.title },
          { header: t('manage.ip.recordContent'), wrap: true, cell: (record) => record.content || '--' },
        ]}
        actions={(record) => (
          <>
            <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={() => setOpen({ kind: 'record', record })} />
            <Button variant="minimal" icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setOpen({ kind: 'deleteRecord', record })} />
          </>
        )}
      />
      {right.transfers.length > 0 && (
        <>
          <ListHeader title={t('manage.ip.transfers')} subtitle />
          <ManagedTable
            rows={right.transfers}
            rowKey={(transfer) => transfer.id}
            rowTestId="ip-transfer-row"
            columns={[
              { header: t('manage.ip.transferDate'), cell: (transfer) => day(transfer.transferDate) },
              { header: t('manage.ip.transferFrom'), wrap: true, cell: (transfer) => transfer.fromOrganizationName },
              { header: t('manage.ip.transferTo'), wrap: true, cell: (transfer) => transfer.toOrganizationName },
              { header: t('manage.ip.reason'), wrap: true, cell: (transfer) => transfer.reason || '--' },
            ]}
          />
        </>
      )}
      {open?.kind === 'edit' && <IpEditDialog right={right} onClose={close} />}
      {open?.kind === 'status' && <StatusDialog right={right} onClose={close} />}
      {open?.kind === 'transfer' && <TransferDialog right={right} onClose={close} />}
      {open?.kind === 'record' && <RecordDialog rightId={right.id} record={open.record} onClose={close} />}
      {open?.kind === 'delete' && (
        <DeleteAlert name={right.name} onClose={close} onConfirm={() => write('ipDelete', { params: { id: right.id } })} onDeleted={() => void navigate('/ip')} />
      )}
      {open?.kind === 'deleteRecord' && (
        <DeleteAlert
          name={open.record.title}
          onClose={close}
          onConfirm={() => write('ipRecordDelete', { params: { id: right.id, recordId: open.record.id } })}
        />
      )}
    </>
  );
}
