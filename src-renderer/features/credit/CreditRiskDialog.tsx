import { useState } from 'react';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { CreditRating } from '../../../src-shared/domain/enums';
import { showsPartyDetailLink } from '../../../src-shared/form/parties';
import { creditRiskDetailRoute } from '../../../src-shared/rules/credit';
import { useAppInfoQuery } from '../../api/api';
import { formatDay } from '../../i18n/format';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedRead } from '../cached-reads/useCachedRead';
import { openRoute } from '../contracts/openRoute';
import { ScreenState } from '../contracts/ScreenState';
import { MonitoringDialog } from './MonitoringDialog';
import { useCreditPlatform } from './useCreditPlatform';
import './credit.css';
import { dimensionText } from './dimensionText';

// The credit-risk preview (spec 2, a ledger dialog 1000 px wide): the contract's external party
// with its credit code, rating, risk count and risks; its details open in a new window with
// role=organization and the page it came from (fromPagePathQuery); its monitoring table beside.
// Offered only while the organisation's credit platform configuration is on.

const ratingIntent = { [CreditRating.None]: 'none', [CreditRating.HighQuality]: 'success', [CreditRating.Good]: 'primary', [CreditRating.Average]: 'warning', [CreditRating.Blacklist]: 'danger' } as const;

export function CreditRiskDialog({ contractId, onClose }: { contractId: string; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: appInfo } = useAppInfoQuery();
  const [monitoring, setMonitoring] = useState<{ id: string; name: string } | null>(null);
  const { answer, error } = useCachedRead({ endpoint: 'contractCreditRisk', params: { id: contractId } });
  const linked = appInfo !== undefined && showsPartyDetailLink(appInfo.organizationShare);
  const preview = answer?.value;
  return (
    <Dialog isOpen onClose={onClose} title={t('credit.creditRisk.title', { name: preview?.contractName ?? '' })} className="credit-dialog">
      <DialogBody>
        <div data-testid="credit-risk-dialog">
          <AsOfNote answer={answer} testId="credit-risk-as-of" />
          {!preview ? (
            <ScreenState error={error} title={t('credit.creditRisk.open')} />
          ) : preview.list.length === 0 ? (
            <NonIdealState icon="shield" description={t('credit.creditRisk.noParty')} />
          ) : (
            preview.list.map((party) => (
              <Card compact key={party.counterpartyID} className="credit-dialog__party" data-testid="credit-risk-party">
                <div className="credit-dialog__facts">
                  <strong data-testid="credit-risk-name" data-user-data>{party.name}</strong>
                  <span>
                    {t('credit.creditRisk.idNumber')}: <span data-user-data>{party.idNumber || '--'}</span>
                  </span>
                  <span>
                    {t('credit.creditRisk.rating')}:{' '}
                    <Tag minimal intent={ratingIntent[party.rating]}>
                      {t('creditRating', { returnObjects: true })[party.rating]}
                    </Tag>
                  </span>
                  <span data-testid="credit-risk-count">
                    {t('credit.creditRisk.riskCount')}: {party.riskCount}
                  </span>
                  <span className="credit-dialog__actions">
                    {linked && (
                      <Button
                        icon="share"
                        data-testid="credit-risk-detail"
                        text={t('credit.creditRisk.viewDetail')}
                        onClick={() => openRoute(creditRiskDetailRoute(party.counterpartyID, location.pathname + location.search), (to) => void navigate(to), { newWindow: true })}
                      />
                    )}
                    <Button icon="eye-open" data-testid="credit-risk-monitoring" text={t('credit.creditRisk.monitoring')} onClick={() => setMonitoring({ id: party.counterpartyID, name: party.name })} />
                  </span>
                </div>
                {party.risks.length === 0 ? (
                  <Callout compact icon="tick-circle" intent="success">
                    {t('credit.creditRisk.noRisks')}
                  </Callout>
                ) : (
                  <div className="credit-table-scroll">
                    <HTMLTable compact striped data-testid="credit-risk-table">
                      <thead>
                        <tr>
                          <th>{t('credit.creditRisk.dimension')}</th>
                          <th>{t('credit.creditRisk.description')}</th>
                          <th className="credit-table__date">{t('credit.creditRisk.occurredOn')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {party.risks.map((risk) => (
                          <tr key={risk.id} data-testid="credit-risk-row">
                            <td>{dimensionText(t, risk.dimensionName)}</td>
                            <td className="credit-table__text">{risk.description}</td>
                            <td className="credit-table__date">{formatDay(risk.occurredOn, i18n.language)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </HTMLTable>
                  </div>
                )}
              </Card>
            ))
          )}
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text={t('credit.close')} onClick={onClose} />} />
      {monitoring && <MonitoringDialog counterparty={monitoring} onClose={() => setMonitoring(null)} />}
    </Dialog>
  );
}

/** The ledger row's credit-risk action: shown only while the credit platform configuration is on. */
export function CreditRiskAction({ contractId }: { contractId: string }) {
  const { t } = useTranslation();
  const enabled = useCreditPlatform();
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  return (
    <>
      <Button variant="minimal" size="small" icon="shield" data-testid="ledger-credit-risk" aria-label={t('credit.creditRisk.open')} title={t('credit.creditRisk.open')} onClick={() => setOpen(true)} />
      {open && <CreditRiskDialog contractId={contractId} onClose={() => setOpen(false)} />}
    </>
  );
}
