import { Button, ButtonGroup, Callout, H5, HTMLTable, ProgressBar, Tag } from '@blueprintjs/core';
import { RefusalDiscardAlert } from './RefusalDiscardAlert';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { SyncProblem, SyncStatus } from '../../../src-shared/ipc/channels';
import { useApplyMineAgainMutation, useDismissProblemMutation, useKeepTheirsMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText, errorTextWithDetail } from '../../i18n/errorText';
import { formatAge, formatDateTime } from '../../i18n/format';
import { fieldLabel, fieldValue, problemSubject } from './problemFields';
import { auditWords } from '../audit/auditWords';
import { firstSyncProgress } from './syncView';

/** Refused edits the user corrects in their screen (the contract's form) rather than only dismisses. */
const correctedInForm = new Set(['contract.create', 'contract.update']);

function ProblemItem({ problem }: { problem: SyncProblem }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [discarding, setDiscarding] = useState(false);
  const onFailure = useActionFailure();
  const [dismiss, dismissing] = useDismissProblemMutation();
  const [keepTheirs, keeping] = useKeepTheirsMutation();
  const [applyMineAgain, applying] = useApplyMineAgainMutation();
  const conflict = problem.state === 'conflict';
  // The server named the fields both sides changed: each row says whether it is one of them.
  const perField = conflict && problem.conflicting.length > 0;
  const busy = dismissing.isLoading || keeping.isLoading || applying.isLoading;
  // A refused draft or form save stays the user's: opened in the form to correct and re-send, or discarded knowingly.
  const correctable = !conflict && problem.rowId !== null && correctedInForm.has(problem.name);
  const draft = problem.name === 'contract.create';
  return (
    <Callout data-testid="sync-problem" data-state={problem.state} intent={conflict ? 'warning' : 'danger'} className="sync-panel__problem" compact>
      <div className="sync-panel__problem-title">
        <strong>{conflict ? t('sync.conflict') : t('sync.rejected')}</strong>
        {': '}
        {problemSubject(t, problem)}
      </div>
      {/* A conflict shown per field needs no more words: the server's (in English) name the same fields. */}
      {problem.error && <div className="sync-panel__problem-error">{perField ? errorText(t, problem.error) : errorTextWithDetail(t, problem.error)}</div>}
      {Object.keys(problem.changes).length > 0 && (
        <HTMLTable compact className="sync-panel__changes">
          <thead>
            <tr>
              <th className="sync-panel__field-column">{t('syncMerge.field')}</th>
              <th>{t('sync.mine')}</th>
              {conflict && <th>{t('sync.theirs')}</th>}
              {perField && <th className="sync-panel__mark-column" />}
            </tr>
          </thead>
          <tbody>
            {Object.entries(problem.changes).map(([field, value]) => {
              const both = problem.conflicting.includes(field);
              return (
                <tr key={field} data-testid="sync-problem-field" data-conflicting={both}>
                  <td>{fieldLabel(t, problem, field)}</td>
                  <td>{fieldValue(t, problem, field, value, i18n.language)}</td>
                  {conflict && <td>{fieldValue(t, problem, field, problem.theirs?.[field], i18n.language)}</td>}
                  {perField && <td>{both ? <Tag intent="warning" minimal multiline>{t('syncMerge.bothChanged')}</Tag> : t('syncMerge.wouldMerge')}</td>}
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      <ButtonGroup className="sync-panel__actions">
        {conflict ? (
          <>
            <Button size="small" disabled={busy} text={t('sync.keepTheirs')} onClick={() => void keepTheirs({ id: problem.id }).unwrap().catch(onFailure)} />
            <Button size="small" intent="primary" disabled={busy} text={t('sync.applyMineAgain')} onClick={() => void applyMineAgain({ id: problem.id }).unwrap().catch(onFailure)} />
          </>
        ) : correctable ? (
          <>
            <Button size="small" intent="primary" icon="edit" data-testid="sync-problem-open" text={t('sync.correct')} onClick={() => navigate(`/myContract/detail?contractId=${problem.rowId}`)} />
            <Button size="small" disabled={busy} data-testid="sync-problem-discard" text={t(draft ? 'contractPage.refusal.createDiscard' : 'contractPage.refusal.updateDiscard')} onClick={() => setDiscarding(true)} />
          </>
        ) : (
          <Button size="small" disabled={busy} text={t('sync.dismiss')} onClick={() => void dismiss({ id: problem.id }).unwrap().catch(onFailure)} />
        )}
      </ButtonGroup>
      <RefusalDiscardAlert
        kind={draft ? 'create' : 'update'}
        isOpen={discarding}
        loading={dismissing.isLoading}
        onCancel={() => setDiscarding(false)}
        onConfirm={() => void dismiss({ id: problem.id }).unwrap().then(() => setDiscarding(false), onFailure)}
      />
    </Callout>
  );
}

/** Which edits wait to be sent: each by its kind and what it is about, the oldest first, the rest counted. */
function WaitingList({ status }: { status: SyncStatus }) {
  const { t, i18n } = useTranslation();
  const words = auditWords(i18n.language);
  const more = status.queued - status.waiting.length;
  return (
    <div className="sync-panel__waiting">
      <span className="bp6-text-muted">{t('sync.waitingTitle')}</span>
      <ul data-testid="sync-waiting">
        {status.waiting.map((change) => (
          <li key={change.id} data-testid="sync-waiting-change">
            {change.subject ? t('sync.waitingChange', { kind: words.action(change.name), subject: change.subject }) : words.action(change.name)}
            <span className="bp6-text-muted"> · {formatAge(change.createdAt, i18n.language)}</span>
          </li>
        ))}
        {more > 0 && <li className="bp6-text-muted">{t('sync.waitingMore', { count: more })}</li>}
      </ul>
    </div>
  );
}

/** Everything about sync the user may need: state, queue, first-sync progress, and what to settle. */
export function SyncPanel({ status }: { status: SyncStatus }) {
  const { t, i18n } = useTranslation();
  const progress = firstSyncProgress(status);
  return (
    <div className="sync-panel" data-testid="sync-panel">
      <H5>{t('sync.panelTitle')}</H5>
      <p data-testid="sync-panel-online">{status.online ? t('sync.online') : t('sync.offline')}</p>
      <p>{status.lastSyncAt ? t('sync.lastSync', { time: formatDateTime(status.lastSyncAt, i18n.language) }) : t('sync.neverSynced')}</p>
      <p data-testid="sync-panel-queued">
        {status.queued === 0 ? t('sync.nothingQueued') : t('sync.queued', { count: status.queued })}
        {status.oldestQueuedAt && `, ${t('sync.oldestQueued', { age: formatAge(status.oldestQueuedAt, i18n.language) })}`}
      </p>
      {status.waiting.length > 0 && <WaitingList status={status} />}
      {progress && (
        <div data-testid="sync-first-progress">
          <p>{t('sync.firstSync', progress)}</p>
          <ProgressBar value={progress.fraction} intent="primary" stripes={false} />
          <p className="sync-panel__note">{t('sync.firstSyncNote')}</p>
        </div>
      )}
      <H5>{t('sync.problemsTitle')}</H5>
      {status.problems.length === 0 ? <p>{t('sync.noProblems')}</p> : status.problems.map((problem) => <ProblemItem key={problem.id} problem={problem} />)}
    </div>
  );
}
