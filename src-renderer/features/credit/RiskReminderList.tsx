import { useEffect, useRef } from 'react';
import { Callout, Card, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { showsPartyDetailLink } from '../../../src-shared/form/parties';
import { externalDetailRoute, riskReminderPollMs } from '../../../src-shared/rules/credit';
import { useAppInfoQuery, useSyncStatusQuery } from '../../api/api';
import { errorText } from '../../i18n/errorText';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedRead } from '../cached-reads/useCachedRead';
import { openRoute } from '../contracts/openRoute';
import { useCreditPlatform } from './useCreditPlatform';
import './credit.css';
import { dimensionText } from './dimensionText';

// The dashboard's counterparty risk reminders (spec 2, issue 13): only when the organisation's
// credit platform configuration is on; asked for again every 10 minutes while online, and shown
// "as of" the last answer while offline. A reminder opens the external counterparty detail in a
// new window (not offered in organisation-share environments, spec 2).

export function RiskReminderList() {
  const enabled = useCreditPlatform();
  // Unmounted while the configuration is off: nothing is asked of the server.
  return enabled ? <RiskReminders /> : null;
}

function RiskReminders() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: status } = useSyncStatusQuery();
  const { data: appInfo } = useAppInfoQuery();
  const online = status?.online ?? false;
  // Polled only while online; offline the last answer stays, "as of" its time.
  const { answer, error, isFetching, refetch } = useCachedRead({ endpoint: 'counterpartRiskAlert' }, { pollingInterval: online ? riskReminderPollMs : 0 });
  // Back online: ask at once rather than at the next poll.
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) void refetch();
    wasOnline.current = online;
  }, [online, refetch]);
  const linked = appInfo !== undefined && showsPartyDetailLink(appInfo.organizationShare);
  const list = answer?.value.list;
  return (
    <Card compact className="risk-reminders" data-testid="risk-reminders" aria-busy={isFetching}>
      <h3 className="risk-reminders__title">{t('credit.riskReminders.title')}</h3>
      <AsOfNote answer={answer} testId="risk-reminders-as-of" />
      {!answer && error ? (
        <Callout compact intent="warning" icon="warning-sign" title={t('credit.riskReminders.loadFailed')}>
          {errorText(t, error)}
        </Callout>
      ) : !list ? (
        <Spinner size={20} />
      ) : list.length === 0 ? (
        <NonIdealState icon="shield" description={t('credit.riskReminders.empty')} />
      ) : (
        <div className="risk-reminders__scroll">
          <HTMLTable compact className="risk-reminders__table">
            <tbody>
              {list.map(({ counterpartyID, riskInfo }) => (
                <tr key={counterpartyID} data-testid="risk-reminder">
                  <td className="risk-reminders__company" title={riskInfo.companyName}>
                    {linked ? (
                      <a
                        href={externalDetailRoute(counterpartyID)}
                        data-testid="risk-reminder-open"
                        onClick={(event) => {
                          event.preventDefault();
                          openRoute(externalDetailRoute(counterpartyID), (to) => void navigate(to), { newWindow: true });
                        }}
                      >
                        {riskInfo.companyName}
                      </a>
                    ) : (
                      riskInfo.companyName
                    )}
                  </td>
                  <td className="risk-reminders__count">
                    <Tag minimal intent="danger" data-testid="risk-reminder-count">
                      {t('credit.riskReminders.riskCount', { count: riskInfo.riskCount })}
                    </Tag>
                  </td>
                  <td className="risk-reminders__dimension" title={dimensionText(t, riskInfo.dimensionName)}>
                    {dimensionText(t, riskInfo.dimensionName)}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Card>
  );
}
