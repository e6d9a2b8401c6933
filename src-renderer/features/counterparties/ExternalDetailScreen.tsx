import './counterparties.css';
import { useState } from 'react';
import { Button, Callout, Card, HTMLTable, NonIdealState, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { registrationSchema, type externalDetailSchema } from '../../../src-shared/api/counterparties';
import { formatMoney, type Money } from '../../../src-shared/domain/money';
import { CreditRating } from '../../../src-shared/domain/enums';
import { showsPartyDetailLink } from '../../../src-shared/form/parties';
import { api, useAppInfoQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedRead } from '../cached-reads/useCachedRead';
import { ContractScoreDialog } from '../contracts/ContractScoreDialog';
import { MonitoringResults } from '../credit/MonitoringDialog';
import { useCreditPlatform } from '../credit/useCreditPlatform';
import { openRoute } from '../contracts/openRoute';
import { ScreenState } from '../contracts/ScreenState';
import { formatDateTime } from '../../i18n/format';
import { ManagedTable } from '../manage/ManagedList';
import '../manage/manage.css';

type ExternalDetail = z.infer<typeof externalDetailSchema>;

// The external counterparty detail (spec 2, `/manage/oppositeParty/externalDetail?id=…`), opened in
// a new window: basic information, banks, the credit rating with its label and remark, the
// business-registration fields and the risk count; with the credit platform configured, the
// monitoring dimensions. Read from the server (refreshed from the credit
// platform) or, offline, as last read. Organisation-share environments do not offer it (spec 2).

const ratingIntent = { [CreditRating.None]: 'none', [CreditRating.HighQuality]: 'success', [CreditRating.Good]: 'primary', [CreditRating.Average]: 'warning', [CreditRating.Blacklist]: 'danger' } as const;
const registrationKeys = Object.keys(registrationSchema.shape) as (keyof typeof registrationSchema.shape)[];

export function ExternalDetailScreen() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { data: appInfo } = useAppInfoQuery();
  const id = search.get('id') ?? '';
  const hidden = appInfo !== undefined && !showsPartyDetailLink(appInfo.organizationShare);
  const { answer, error } = useCachedRead({ endpoint: 'counterpartExternalDetail', params: { id }, query: { refresh: true } }, { skip: hidden || id === '' || !appInfo });
  if (hidden)
    return (
      <div data-testid="external-detail-hidden">
        <NonIdealState icon="eye-off" title={t('counterparties.detail.hidden')} />
      </div>
    );
  if (!answer) return <ScreenState error={error} title={t('counterparties.detail.title')} />;
  const detail = answer.value;
  const labels = t('contractFormComplex.partyDetail', { returnObjects: true });
  const dash = (text: string | null) => text || '--';
  const basic: [string, string][] = [
    [labels.name, detail.name],
    [labels.subType, labels.subTypes[detail.subType]],
    [labels.idNumber, dash(detail.idNumber)],
    [labels.address, dash(detail.address)],
    [labels.contactInfo, dash(detail.contactInfo)],
    [labels.email, dash(detail.email)],
    [labels.fax, dash(detail.fax)],
    [labels.isConnectedTransaction, detail.isConnectedTransaction ? labels.yes : labels.no],
    [labels.riskCount, String(detail.riskCount)],
  ];
  return (
    <section className="external-detail" data-testid="external-detail" aria-label={t('counterparties.detail.title')}>
      <h2 className="screen-title" data-user-data>{detail.name}</h2>
      <AsOfNote answer={answer} testId="external-detail-as-of" />
      <Card className="external-detail__card">
        <h3>{t('counterparties.detail.basic')}</h3>
        <FactTable rows={basic} testId="external-detail-basic" />
      </Card>
      <Card className="external-detail__card">
        <h3>{t('counterparties.detail.rating')}</h3>
        <p>
          <Tag large intent={ratingIntent[detail.rating]} data-testid="external-detail-rating">
            {t('creditRating', { returnObjects: true })[detail.rating]}
          </Tag>
        </p>
        <p data-testid="external-detail-rating-remark">
          {t('counterparties.detail.ratingRemark')}: {dash(detail.ratingRemark)}
        </p>
      </Card>
      <Card className="external-detail__card">
        <h3>{t('counterparties.detail.banks')}</h3>
        {detail.banks.length === 0 ? (
          <Callout compact>{t('counterparties.detail.noBanks')}</Callout>
        ) : (
          <HTMLTable compact striped data-testid="external-detail-banks">
            <thead>
              <tr>
                <th>{t('counterparties.fields.bankName')}</th>
                <th>{t('counterparties.fields.account')}</th>
                <th>{t('counterparties.fields.accountName')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.banks.map((bank, index) => (
                <tr key={index}>
                  <td>{bank.name}</td>
                  <td>{bank.account}</td>
                  <td>{bank.accountName}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
      <CooperationCard detail={detail} />
      <MonitoringCard counterpartyId={detail.id} />
      {detail.registration && (
        <Card className="external-detail__card">
          <h3>{t('counterparties.detail.registration')}</h3>
          <FactTable
            testId="external-detail-registration"
            rows={registrationKeys.map((key) => [t(`counterparties.detail.registrationFields.${key}`), dash(detail.registration?.[key] ?? null)])}
          />
        </Card>
      )}
    </section>
  );
}

/**
 * The cooperation with the party (the list's columns) and its newest contracts: each opens in its
 * page, and is scored here in the 800 px scoring dialog (online only, like every scoring).
 */
function CooperationCard({ detail }: { detail: ExternalDetail }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [scoring, setScoring] = useState<string | null>(null);
  const columns = t('counterparties.columns', { returnObjects: true });
  const money = (amounts: readonly Money[]) => (amounts.length ? amounts.map(formatMoney).join(t('contractForm.listSeparator')) : '--');
  const figures: [string, string][] = [
    [columns.cooperationCount, String(detail.cooperationCount)],
    [columns.totalAmount, money(detail.totalAmount)],
    [columns.averageScore, detail.averageScore === null ? '--' : detail.averageScore.toFixed(1)],
    [columns.rating, t('creditRating', { returnObjects: true })[detail.rating]],
    [columns.riskCount, String(detail.riskCount)],
  ];
  return (
    <Card className="external-detail__card">
      <h3>{t('counterparties.detail.cooperation')}</h3>
      <FactTable rows={figures} testId="external-detail-cooperation" />
      <h4>{t('counterparties.detail.contracts')}</h4>
      <ManagedTable
        rows={detail.cooperationContracts}
        emptyText={t('counterparties.detail.noContracts')}
        rowKey={(contract) => contract.id}
        rowTestId="external-detail-contract"
        columns={[
          {
            header: t('counterparties.detail.contractName'),
            wrap: true,
            cell: (contract) => (
              <Button
                variant="minimal"
                intent="primary"
                text={contract.name}
                onClick={() => openRoute(`/standingBook/detail?${new URLSearchParams({ contractId: contract.id, mode: 'contract' })}`, (to) => void navigate(to))}
              />
            ),
          },
          { header: t('counterparties.detail.contractNumber'), cell: (contract) => contract.contractNumber ?? '--' },
          { header: t('counterparties.detail.amount'), cell: (contract) => (contract.amount ? formatMoney(contract.amount) : '--') },
          { header: t('counterparties.detail.score'), cell: (contract) => (contract.score === null ? '--' : contract.score.toFixed(1)) },
          { header: columns.updateTime, cell: (contract) => formatDateTime(contract.updateTime, i18n.language) },
        ]}
        actions={(contract) => <Button variant="minimal" icon="star" text={t('counterparties.detail.scoreAction')} onClick={() => setScoring(contract.id)} data-testid="external-detail-score" />}
      />
      {detail.cooperationContracts.length < detail.cooperationCount && (
        <p className="manage__muted">{t('counterparties.detail.newestContracts', { shown: detail.cooperationContracts.length, count: detail.cooperationCount })}</p>
      )}
      {scoring && (
        <ContractScoreDialog
          key={scoring}
          contractId={scoring}
          onClose={() => {
            setScoring(null);
            // A saved score changes the average and the contract's score: read the detail again.
            dispatch(api.util.invalidateTags(['CachedRead']));
          }}
        />
      )}
    </Card>
  );
}

/** The monitoring-dimension section, shown while the organisation's credit platform is configured (spec 6). */
function MonitoringCard({ counterpartyId }: { counterpartyId: string }) {
  const { t } = useTranslation();
  if (!useCreditPlatform()) return null;
  return (
    <Card className="external-detail__card" data-testid="external-detail-monitoring">
      <h3>{t('counterparties.detail.monitoring')}</h3>
      <MonitoringResults counterpartyId={counterpartyId} />
    </Card>
  );
}

function FactTable({ rows, testId }: { rows: [string, string][]; testId: string }) {
  return (
    <HTMLTable compact className="party-detail" data-testid={testId}>
      <tbody>
        {rows.map(([label, text]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{text}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
