import { useEffect, useState } from 'react';
import { Callout, H5, HTMLTable, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AuditEvent } from '../../../src-shared/api/audit';
import type { FormFieldLabel } from '../../../src-shared/i18n/audit-words';
import { toAppError, type AppError } from '../../../src-shared/errors';
import { errorText } from '../../i18n/errorText';
import { formatDateTime } from '../../i18n/format';
import { useOnlineWrite } from '../cached-reads/useCachedRead';
import './audit.css';
import { auditWords, useDeviceText } from './auditWords';

// One contract's audit events on its history tab (issue 32, item 4): read from the server each
// time (the trail is not kept on the device), so offline it says why there is nothing.

/** `formLabel` names the contract's form fields by its template (the history tab knows it). */
export function ContractAuditEvents({ contractId, formLabel }: { contractId: string; formLabel?: FormFieldLabel }) {
  const { t, i18n } = useTranslation();
  const call = useOnlineWrite();
  const [answer, setAnswer] = useState<{ id: string; list?: AuditEvent[]; error?: AppError } | null>(null);

  useEffect(() => {
    let current = true;
    call('contractAuditEvents', { params: { id: contractId } })
      .then(({ list }) => current && setAnswer({ id: contractId, list }))
      .catch((cause: unknown) => current && setAnswer({ id: contractId, error: toAppError(cause) }));
    return () => {
      current = false;
    };
  }, [call, contractId]);

  const shown = answer?.id === contractId ? answer : null;
  const words = auditWords(i18n.language);
  const deviceText = useDeviceText();
  return (
    <section aria-label={t('audit.contractEvents')} data-testid="contract-audit-events">
      <H5>{t('audit.contractEvents')}</H5>
      {!shown && <Spinner size={20} />}
      {shown?.error && (
        <Callout intent={shown.error.code === 'offline' ? 'primary' : 'warning'} icon={shown.error.code === 'offline' ? 'offline' : 'warning-sign'} data-testid="contract-audit-unavailable">
          {shown.error.code === 'offline' ? t('audit.contractEventsOffline') : errorText(t, shown.error)}
        </Callout>
      )}
      {shown?.list && shown.list.length === 0 && <p className="bp6-text-muted">{t('audit.empty')}</p>}
      {shown?.list && shown.list.length > 0 && (
        <HTMLTable compact striped className="contract-history__table">
          <thead>
            <tr>
              {(['appliedAt', 'editedAt', 'user', 'device', 'action', 'changes'] as const).map((column) => <th key={column}>{t(`audit.columns.${column}`)}</th>)}
            </tr>
          </thead>
          <tbody>
            {[...shown.list].reverse().map((event) => (
              <tr key={event.seq} data-testid="contract-audit-event">
                <td className="contract-history__time">{formatDateTime(event.appliedAt, i18n.language)}</td>
                <td className="contract-history__time">{event.editedAt ? formatDateTime(event.editedAt, i18n.language) : ''}</td>
                <td>{event.userName}</td>
                <td className="audit__device" data-testid="contract-audit-device">{deviceText(event.device)}</td>
                <td data-testid="contract-audit-action">{words.action(event.action)}</td>
                <td className="audit__changes" title={words.changes(event, formLabel)} data-testid="contract-audit-changes">
                  {words.fields(event.changes, formLabel)}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
