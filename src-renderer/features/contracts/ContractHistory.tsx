import { Callout, H5, HTMLTable, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ApprovalTrailEntry } from '../../../src-shared/domain/approval-trail';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormField } from '../../../src-shared/form/field-config';
import type { LocalContractChange, ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { useContractHistoryQuery, useTemplateQuery } from '../../api/api';
import { errorText } from '../../i18n/errorText';
import { formatDateTime } from '../../i18n/format';
import { ContractAuditEvents } from '../audit/ContractAuditEvents';
import { contractFormFields } from './draftValues';
import { formatChangeValue } from './historyValues';

// The contract page's history tab (spec 4, alteration; issue 29, the approval trail): every
// approval step — what, who, the comment, when taken and when it reached the server — from the
// replica (the feed brings it, so offline too); the server's alterations — when, who, why, each
// changed field before and after — answered from the copy kept on this device while offline;
// and this device's own edits and steps of the contract until they settle.

const stateIntent: Record<LocalContractChange['state'], Intent> = { pending: Intent.PRIMARY, applied: Intent.SUCCESS, rejected: Intent.DANGER, conflict: Intent.WARNING };

interface ValueContext {
  fields: readonly FormField[];
  clauses: readonly Clause[];
  t: TFunction;
  language: string;
}

function fieldLabel(fieldId: string, { fields }: ValueContext, fallback?: string): string {
  return fields.find((field) => field.id === fieldId)?.name ?? fallback ?? fieldId;
}

function formatted(fieldId: string, value: unknown, context: ValueContext): string {
  return formatChangeValue(context.fields.find((field) => field.id === fieldId), value, context.t, context.language, context.clauses);
}

function ChangeList({ items }: { items: readonly string[] }) {
  return (
    <ul className="contract-history__changes">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

function DeviceChanges({ changes, context, language }: { changes: readonly LocalContractChange[]; context: ValueContext; language: string }) {
  const { t } = context;
  return (
    <section aria-label={t('contracts.deviceChanges')} data-testid="contract-history-device">
      <H5>{t('contracts.deviceChanges')}</H5>
      <HTMLTable compact striped className="contract-history__table">
        <tbody>
          {changes.map((change) => {
            const kind = change.name.split('.')[1] ?? change.name;
            return (
              <tr key={change.id} data-state={change.state}>
                <td className="contract-history__time">{formatDateTime(change.createdAt, language)}</td>
                <td>
                  {t(`contracts.deviceChange.${kind}`, { defaultValue: change.name })}{' '}
                  <Tag minimal intent={stateIntent[change.state]}>{t(`contracts.deviceChangeState.${change.state}`)}</Tag>
                </td>
                <td>{change.step ? [t(`contracts.approvalStep.${change.step.action}`), change.step.comment].filter(Boolean).join(t('contracts.stepCommentSeparator')) : (change.reason ?? '')}</td>
                <td>
                  <ChangeList
                    items={Object.entries(change.changes).map(([key, value]) => t('contracts.historyNewValue', { field: fieldLabel(key, context), after: formatted(key, value, context) }))}
                  />
                  {change.error && <div className="bp6-text-muted">{errorText(t, change.error)}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </section>
  );
}

function ApprovalTrail({ trail, language, t }: { trail: readonly ApprovalTrailEntry[]; language: string; t: TFunction }) {
  return (
    <section aria-label={t('contracts.approvalTrail')} data-testid="contract-history-approvals">
      <H5>{t('contracts.approvalTrail')}</H5>
      {trail.length === 0 ? (
        <p className="bp6-text-muted">{t('contracts.approvalTrailEmpty')}</p>
      ) : (
        <HTMLTable compact striped className="contract-history__table">
          <thead>
            <tr>
              <th>{t('contracts.approvalTakenAt')}</th>
              <th>{t('contracts.approvalBy')}</th>
              <th>{t('contracts.approvalStepColumn')}</th>
              <th>{t('contracts.approvalComment')}</th>
            </tr>
          </thead>
          <tbody>
            {[...trail].reverse().map((entry, i) => (
              <tr key={`${entry.appliedAt}-${i}`} data-testid="approval-trail-entry" data-action={entry.action}>
                <td className="contract-history__time">
                  {formatDateTime(entry.takenAt, language)}
                  {/* A step taken offline reached the server later: both times are the trail's (shown when they read differently). */}
                  {formatDateTime(entry.appliedAt, language) !== formatDateTime(entry.takenAt, language) && (
                    <div className="bp6-text-muted">{t('contracts.approvalAppliedAt', { time: formatDateTime(entry.appliedAt, language) })}</div>
                  )}
                </td>
                <td>{entry.userName}</td>
                <td>{t(`contracts.approvalStep.${entry.action}`)}</td>
                <td>{entry.comment ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}

/**
 * The history of one contract, for the contract page's history tab. Reads 'contract.alterations'
 * (server history kept for offline reading, plus this device's edits).
 */
export function ContractHistory({ contract }: { contract: Pick<ReplicaContractDetail, 'id' | 'templateId'> }) {
  const { t, i18n } = useTranslation();
  const { data, error } = useContractHistoryQuery(contract.id);
  const { data: template } = useTemplateQuery(contract.templateId ?? skipToken);
  if (error) {
    return (
      <Callout intent="warning" icon="warning-sign" title={t('contracts.historyLoadFailed')} data-testid="contract-history-error">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!data) return <Spinner size={20} />;
  const context: ValueContext = { fields: contractFormFields(contract.templateId, template, t) ?? [], clauses: template?.clauses ?? [], t, language: i18n.language };
  const language = i18n.language;
  return (
    <section className="contract-history" aria-label={t('contracts.history')} data-testid="contract-history">
      {data.offline && (
        <Callout intent="primary" icon="offline" data-testid="contract-history-offline">
          {data.fetchedAt ? t('contracts.historyAsOf', { time: formatDateTime(data.fetchedAt, language) }) : t('contracts.historyNeverFetched')}
        </Callout>
      )}
      {data.localChanges.length > 0 && <DeviceChanges changes={data.localChanges} context={context} language={language} />}
      <ApprovalTrail trail={data.approvalTrail} language={language} t={t} />
      <H5>{t('contracts.alterations')}</H5>
      {data.alterations.length === 0 ? (
        <NonIdealState icon="history" description={t('contracts.historyEmpty')} />
      ) : (
        <HTMLTable compact striped className="contract-history__table" data-testid="contract-history-alterations">
          <thead>
            <tr>
              <th>{t('contracts.historyTime')}</th>
              <th>{t('contracts.historyUser')}</th>
              <th>{t('contracts.historyReason')}</th>
              <th>{t('contracts.historyChanges')}</th>
            </tr>
          </thead>
          <tbody>
            {[...data.alterations].reverse().map((alteration) => (
              <tr key={alteration.id}>
                <td className="contract-history__time">{formatDateTime(alteration.createTime, language)}</td>
                <td>{alteration.userName}</td>
                <td>{alteration.reason}</td>
                <td>
                  <ChangeList
                    items={alteration.changes.map((change) =>
                      t('contracts.historyChange', {
                        field: fieldLabel(change.fieldId, context, change.name),
                        before: formatted(change.fieldId, change.before, context),
                        after: formatted(change.fieldId, change.after, context),
                      }),
                    )}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <ContractAuditEvents contractId={contract.id} formLabel={(fieldId) => context.fields.find((field) => field.id === fieldId)?.name} />
    </section>
  );
}
