import { Button, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { monitoringTarget } from '../../../src-shared/rules/credit';
import { useActionFailure } from '../../app/useActionFailure';
import { showFailure } from '../../app/toaster';
import { formatDateTime } from '../../i18n/format';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedFetch, useCachedRead } from '../cached-reads/useCachedRead';
import { openRoute } from '../contracts/openRoute';
import { ScreenState } from '../contracts/ScreenState';
import './credit.css';
import { dimensionText } from './dimensionText';

// The external counterparty monitoring table (spec 2, the ledger's dialogs; spec 6, the external
// counterparty detail's monitoring-dimension section): the party's monitoring results; 'view' opens the monitoring page in a new window — an app route in a new app
// window, the credit platform's http(s) page in the system browser (the shell's rules decide).

export function MonitoringDialog({ counterparty, onClose }: { counterparty: { id: string; name: string }; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog isOpen onClose={onClose} title={t('credit.monitoring.title', { name: counterparty.name })} className="monitoring-dialog">
      <DialogBody>
        <div data-testid="monitoring-dialog">
          <MonitoringResults counterpartyId={counterparty.id} />
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text={t('credit.close')} onClick={onClose} />} />
    </Dialog>
  );
}

/**
 * A party's monitoring results by dimension, as the dialog and the external counterparty detail
 * show them: read from the server, or as last read offline; 'view' opens the monitoring page.
 */
export function MonitoringResults({ counterpartyId }: { counterpartyId: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const failed = useActionFailure();
  const fetchCached = useCachedFetch();
  const { answer, error } = useCachedRead({ endpoint: 'counterpartMonitoring', params: { id: counterpartyId } });

  async function view() {
    try {
      const { value } = await fetchCached('counterpartMonitoringUrl', { params: { id: counterpartyId } });
      const target = monitoringTarget(value.url);
      if (target.kind === 'route') openRoute(target.path, (to) => void navigate(to), { newWindow: true });
      else if (target.kind === 'web') window.open(target.url, '_blank', 'noopener');
      else showFailure(t('errors.bad_request'));
    } catch (cause) {
      failed(cause as Parameters<typeof failed>[0]);
    }
  }

  const list = answer?.value.list;
  return (
    <>
      <AsOfNote answer={answer} testId="monitoring-as-of" />
      {!list ? (
        <ScreenState error={error} title={t('credit.monitoring.open')} />
      ) : list.length === 0 ? (
        <NonIdealState icon="eye-open" description={t('credit.monitoring.empty')} />
      ) : (
        <div className="credit-table-scroll">
          <HTMLTable compact striped data-testid="monitoring-table">
            <thead>
              <tr>
                <th>{t('credit.monitoring.dimension')}</th>
                <th>{t('credit.monitoring.info')}</th>
                <th className="credit-table__date">{t('credit.monitoring.updateTime')}</th>
                <th className="credit-table__operation">{t('credit.monitoring.operation')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((result) => (
                <tr key={result.id} data-testid="monitoring-row">
                  <td>{dimensionText(t, result.dimensionName)}</td>
                  <td className="credit-table__text">{result.info}</td>
                  <td className="credit-table__date">{formatDateTime(result.updateTime, i18n.language)}</td>
                  <td className="credit-table__operation">
                    <Button variant="minimal" size="small" intent="primary" data-testid="monitoring-view" text={t('credit.monitoring.view')} onClick={() => void view()} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </>
  );
}
