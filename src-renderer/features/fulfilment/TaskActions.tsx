import { Alert, Button, Tag } from '@blueprintjs/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SheetTask, TaskRefusal } from '../../../src-shared/ipc/fulfilment';
import { useDeletePlanTaskMutation, useDeleteQuickTaskMutation, useDismissProblemMutation, useRestoreTaskMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { FormServicesProvider, type FormServices } from '../contract-form';
import { FinishDialog, type FinishTarget } from './FinishDialog';

// A task's actions wherever it is shown (the contract's performance tab, the dashboard's cards and
// list): finish, view, restore after the spec's confirmation, delete after confirmation. Each is
// queued on this device (it works offline) and its toast says so; the server's refusal comes
// back on the task (TaskRefusalNote).

/** What the actions need of a task: a quick task has neither plan nor performance. */
export type ActionTask = Pick<SheetTask, 'id' | 'name' | 'planId' | 'performanceId'>;

export interface TaskActions {
  finish(task: ActionTask): void;
  view(task: ActionTask): void;
  finishBatch(tasks: SheetTask[]): void;
  restore(task: ActionTask): void;
  remove(task: ActionTask): void;
  /** The dialogs the actions open; rendered once by the screen. */
  dialogs: ReactNode;
}

/** `services`: the form's (the finish dialog's upload field); none yet while the screen loads them. */
export function useTaskActions(services: FormServices | undefined): TaskActions {
  const { t } = useTranslation();
  const [target, setTarget] = useState<FinishTarget | null>(null);
  const [restoring, setRestoring] = useState<ActionTask | null>(null);
  const [deleting, setDeleting] = useState<ActionTask | null>(null);
  const [restore] = useRestoreTaskMutation();
  const [deletePlanTask] = useDeletePlanTaskMutation();
  const [deleteQuickTask] = useDeleteQuickTaskMutation();
  const failed = useActionFailure();

  const remove = (task: ActionTask) =>
    // A plan's row is deleted from its plan (spec 5); a quick task, in no plan, by its id.
    task.planId !== null && task.performanceId !== null ? deletePlanTask({ performanceId: task.performanceId, planID: task.id }) : deleteQuickTask({ id: task.id });

  const dialogs = (
    <>
      {target && services && (
        <FormServicesProvider services={services}>
          <FinishDialog target={target} onClose={() => setTarget(null)} />
        </FormServicesProvider>
      )}
      <Alert
        isOpen={restoring !== null}
        intent="primary"
        confirmButtonText={t('fulfilment.confirm')}
        cancelButtonText={t('fulfilment.cancel')}
        onCancel={() => setRestoring(null)}
        onConfirm={() => {
          const task = restoring!;
          setRestoring(null);
          restore({ id: task.id })
            .unwrap()
            .then(() => showNotice(t('fulfilment.restored')), failed);
        }}
      >
        <p data-testid="restore-confirm">{t('fulfilment.restoreConfirm')}</p>
      </Alert>
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        confirmButtonText={t('fulfilment.delete')}
        cancelButtonText={t('fulfilment.cancel')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const task = deleting!;
          setDeleting(null);
          // The screen reloads from the replica once the queued delete shows there ('data.changed').
          remove(task)
            .unwrap()
            .then(() => showNotice(t('fulfilment.deleted')), failed);
        }}
      >
        <p data-testid="delete-confirm">{deleting && t('fulfilment.deleteConfirm', { name: deleting.name })}</p>
      </Alert>
    </>
  );

  return {
    finish: (task) => setTarget({ kind: 'one', task }),
    view: (task) => setTarget({ kind: 'view', task }),
    finishBatch: (tasks) => setTarget({ kind: 'batch', tasks }),
    restore: setRestoring,
    remove: setDeleting,
    dialogs,
  };
}

/** The task's edit the server refused (or found changed meanwhile), with its reason in the user's language; a refusal is dismissed here. */
export function TaskRefusalNote({ refusal }: { refusal: TaskRefusal }) {
  const { t } = useTranslation();
  const [dismiss, dismissing] = useDismissProblemMutation();
  const failed = useActionFailure();
  const rejected = refusal.state === 'rejected';
  return (
    <div className="fulfilment-refusal" data-testid="task-refused" data-state={refusal.state}>
      <Tag minimal intent={rejected ? 'danger' : 'warning'} icon="error">
        {rejected ? t(`fulfilment.refused.${refusedAction(refusal.name)}`) : t('fulfilment.refusedConflict')}
      </Tag>
      {refusal.error && <span className="fulfilment-refusal__reason" data-testid="task-refused-reason">{errorText(t, refusal.error)}</span>}
      {rejected && (
        <Button
          size="small"
          variant="minimal"
          data-testid="task-refused-dismiss"
          disabled={dismissing.isLoading}
          text={t('sync.dismiss')}
          onClick={(event) => {
            // On a dashboard card, whose click opens the task's contract.
            event.stopPropagation();
            void dismiss({ id: refusal.mutationId }).unwrap().catch(failed);
          }}
        />
      )}
    </div>
  );
}

/** Which of the user's edits of a task a refusal was: the mutation names the catalog's words. */
function refusedAction(name: string): 'finish' | 'restore' | 'delete' | 'edit' {
  if (name === 'performance.finishTask' || name === 'performance.finishTasks') return 'finish';
  if (name === 'performance.restoreTask' || name === 'performance.restoreTasks') return 'restore';
  if (name === 'performance.deleteTask' || name === 'performance.deletePlanTask') return 'delete';
  return 'edit';
}
