import { Button, Callout, Checkbox, Dialog, DialogBody, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ScheduleConditionType, TaskState } from '../../../src-shared/domain/enums';
import { formatMoney } from '../../../src-shared/domain/money';
import type { SheetColumn } from '../../../src-shared/domain/performance';
import type { PlanSheet, SheetTask } from '../../../src-shared/ipc/fulfilment';
import { batchFinishable, isFinishable } from '../../../src-shared/rules/fulfilment';
import { useContractPerformanceQuery } from '../../api/api';
import { errorText } from '../../i18n/errorText';
import { formatDay } from '../../i18n/format';
import { FormServicesProvider, type FormServices } from '../contract-form';
import { PredecessorCell, RelateDialog } from './Predecessors';
import { SheetEditor } from './SheetEditor';
import { TaskRefusalNote, useTaskActions } from './TaskActions';
import { AddPlan } from './AddPlanDialog';
import { RemovePlan } from './RemovePlan';
import { ScheduleNote } from './ScheduleNote';
import { shownCell, sheetCellText, type ContractFormValues } from './SheetCell';
import './fulfilment.css';
import { stateLabels } from './taskStateLabels';
import { performanceName } from './performanceNames';

// The contract page's performance tab (issue 13, spec 2 "Performance sheet table", spec 4
// "Performance tasks"): each plan's sheet from the replica with the actions its tasks' states
// allow. Every action is queued as a sync mutation (it works offline) after the core checked it
// by the shared rules; the server's refusal of one comes back as a sync problem, shown on its row.

/** The full-screen sheet is 85 % wide when its columns would not fit in half the window (spec 2). */
export const fullScreenWidth = (columns: number) => (columns * 13 > 86 ? '85%' : '50%');

function cellText(t: TFunction, task: SheetTask, column: SheetColumn, contractValues: SheetProps['contractValues'], language: string, missing: string): string {
  switch (column.id) {
    case 'name':
      return task.name;
    case 'expirationTime':
      return task.dueDate ? formatDay(task.dueDate, language) : missing;
    case 'receivableAmount':
      return task.receivableAmount ? formatMoney(task.receivableAmount) : missing;
    case 'payableAmount':
      return task.payableAmount ? formatMoney(task.payableAmount) : missing;
    default:
      return sheetCellText(t, column, shownCell(column, task.values, contractValues), language) ?? missing;
  }
}

interface SheetProps {
  columns: readonly SheetColumn[];
  /** The contract's current values: a column that follows one of its fields shows it. */
  contractValues?: Readonly<Record<string, unknown>> | undefined;
  tasks: readonly SheetTask[];
  /** Rows that may be picked for a batch finish; none while the contract is being changed or an alteration of it waits to sync. */
  selectable: boolean;
  selected: ReadonlySet<string>;
  onSelect(id: string, on: boolean): void;
  onFinish(task: SheetTask): void;
  onView(task: SheetTask): void;
  onRestore(task: SheetTask): void;
  onDelete(task: SheetTask): void;
  onRelate(task: SheetTask): void;
  /** No task may be finished now: the contract is being changed, or an alteration of it waits to sync. */
  finishLocked: boolean;
}

function SheetTable(props: SheetProps) {
  const { t, i18n } = useTranslation();
  const missing = t('contractStatus.missing');
  // The state column is shown once, from the task's state, wherever the performance puts it.
  const shown = props.columns.filter((column) => !column.isState && column.id !== 'leader');
  return (
    <HTMLTable compact striped className="contract-page__table fulfilment-sheet" data-testid="contract-tasks">
      <thead>
        <tr>
          {props.selectable && <th aria-hidden />}
          <th>{t('fulfilment.index')}</th>
          {shown.map((column) => (
            <th key={column.id} className={column.type === 'money' ? 'ledger-table__amount' : undefined}>
              {column.isRequired ? `* ${performanceName(t, column.id, column.name)}` : performanceName(t, column.id, column.name)}
            </th>
          ))}
          <th>{t('predecessors.column')}</th>
          <th>{t('fulfilment.state')}</th>
          <th>{t('fulfilment.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {props.tasks.map((task) => {
          const done = task.state === TaskState.Success;
          return (
            <tr key={task.id} data-testid="contract-task" data-task-id={task.id} data-state={task.state}>
              {props.selectable && (
                <td>
                  {isFinishable(task.state) && (
                    <Checkbox
                      className="fulfilment-sheet__pick"
                      aria-label={t('fulfilment.selectRow', { name: task.name })}
                      checked={props.selected.has(task.id)}
                      onChange={(event) => props.onSelect(task.id, event.currentTarget.checked)}
                    />
                  )}
                </td>
              )}
              <td>{task.rowIndex}</td>
              {shown.map((column) => (
                <td key={column.id} className={column.type === 'money' ? 'ledger-table__amount' : undefined}>
                  {cellText(t, task, column, props.contractValues, i18n.language, missing)}
                </td>
              ))}
              <td>
                <PredecessorCell task={task} onRelate={props.onRelate} />
              </td>
              <td>
                {t(`taskState.${stateLabels[task.state]}`)}
                {task.pending && (
                  <Tag minimal intent="warning" className="fulfilment-sheet__pending" data-testid="task-pending">
                    {t('fulfilment.pending')}
                  </Tag>
                )}
                {task.refusal && <TaskRefusalNote refusal={task.refusal} />}
              </td>
              <td className="fulfilment-sheet__actions">
                {!task.queuedNew && isFinishable(task.state) && !props.finishLocked && (
                  <Button small minimal intent="primary" data-testid="task-finish" text={t('fulfilment.finish')} onClick={() => props.onFinish(task)} />
                )}
                {done && !task.queuedNew && <Button small minimal data-testid="task-view" text={t('fulfilment.view')} onClick={() => props.onView(task)} />}
                {done && !task.queuedNew && <Button small minimal data-testid="task-restore" text={t('fulfilment.restore')} onClick={() => props.onRestore(task)} />}
                {!done && !task.queuedNew && (
                  <Button small minimal intent="danger" data-testid="task-delete" text={t('fulfilment.delete')} onClick={() => props.onDelete(task)} />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}

type SheetActions = Omit<SheetProps, 'columns' | 'tasks' | 'selectable' | 'selected' | 'onSelect' | 'finishLocked'> & { onBatch(tasks: SheetTask[]): void };

interface PlanCardProps {
  plan: PlanSheet;
  contractId: string;
  inChange: boolean;
  /** An alteration of the contract waits to sync: the core refuses finishes until it is sent. */
  alterationQueued: boolean;
  contractStatus: Parameters<typeof batchFinishable>[1];
  actions: SheetActions;
  /** The contract's form, where the page has it: related columns show its values, extraction reads them. */
  contractForm?: ContractFormValues | undefined;
}

function PlanCard({ plan, contractId, inChange, alterationQueued, contractStatus, actions, contractForm }: PlanCardProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [fullScreen, setFullScreen] = useState(false);
  const [editing, setEditing] = useState(false);
  // A periodic plan's rows come from its schedule: they are not edited row by row.
  const editable = plan.conditionType !== ScheduleConditionType.Periodicity;
  const picked = plan.tasks.filter((task) => selected.has(task.id) && batchFinishable(task.state, contractStatus));
  const select = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const sheet = editing ? (
    <SheetEditor plan={plan} contractId={contractId} contractForm={contractForm} onDone={() => setEditing(false)} />
  ) : (
    <SheetTable
      contractValues={contractForm?.values}
      columns={plan.columns}
      tasks={plan.tasks}
      selectable={!inChange && !alterationQueued}
      selected={selected}
      onSelect={select}
      finishLocked={inChange || alterationQueued}
      {...actions}
    />
  );
  return (
    <section className="fulfilment-plan" data-testid="performance-plan" data-plan-id={plan.id}>
      <header className="fulfilment-plan__header">
        <h3 className="fulfilment-plan__title" data-user-data>{plan.performanceName}</h3>
        {editable && (
          <Button
            small
            icon={editing ? 'eye-open' : 'edit'}
            data-testid="sheet-edit"
            text={editing ? t('fulfilment.preview') : t('fulfilment.edit')}
            onClick={() => setEditing(!editing)}
          />
        )}
        {!inChange && !editing && (
          <Button
            small
            intent="primary"
            data-testid="batch-finish"
            disabled={picked.length === 0 || alterationQueued}
            text={t('fulfilment.batchFinish')}
            onClick={() => {
              actions.onBatch(picked);
              setSelected(new Set());
            }}
          />
        )}
        <Button small minimal icon="fullscreen" data-testid="sheet-fullscreen" aria-label={t('fulfilment.fullScreen')} title={t('fulfilment.fullScreen')} onClick={() => setFullScreen(true)} />
        {!editing && <RemovePlan plan={plan} />}
      </header>
      <ScheduleNote schedule={plan.schedule} />
      {plan.pendingRows && (
        <Callout intent="warning" data-testid="plan-pending">
          {t('fulfilment.pendingSheet')}
        </Callout>
      )}
      {!fullScreen && sheet}
      <Dialog
        isOpen={fullScreen}
        onClose={() => setFullScreen(false)}
        title={plan.performanceName}
        style={{ width: fullScreenWidth(plan.columns.length + 3) }}
      >
        <DialogBody data-testid="sheet-dialog">{sheet}</DialogBody>
      </Dialog>
    </section>
  );
}

/** The contract page's performance tab. */
export function PerformanceTab({ contractId, services, contractForm }: { contractId: string; services: FormServices; contractForm?: ContractFormValues }) {
  const { t } = useTranslation();
  const { data, error } = useContractPerformanceQuery(contractId);
  const taskActions = useTaskActions(services);
  const [relating, setRelating] = useState<SheetTask | null>(null);
  if (error) {
    return (
      <Callout intent="warning" icon="warning-sign" title={t('fulfilment.loadFailed')} data-testid="contract-tasks-error">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!data) return <Spinner size={20} />;
  if (data.plans.length === 0 && data.looseTasks.length === 0) {
    return (
      <div data-testid="contract-tasks-none">
        <FormServicesProvider services={services}>
          <NonIdealState icon="calendar" title={t('fulfilment.none')} action={<AddPlan contractId={contractId} performance={data} />} />
        </FormServicesProvider>
      </div>
    );
  }
  const actions: SheetActions = {
    onFinish: taskActions.finish,
    onView: taskActions.view,
    onRestore: taskActions.restore,
    onDelete: taskActions.remove,
    onBatch: taskActions.finishBatch,
    onRelate: setRelating,
  };
  return (
    <div className="fulfilment" data-testid="performance-tab">
      {data.inChange && (
        <Callout intent="warning" icon="lock" data-testid="contract-in-change">
          {t('fulfilment.inChange')}
        </Callout>
      )}
      {data.alterationQueued && (
        <Callout intent="warning" icon="time" data-testid="contract-alteration-queued">
          {t('errors.alteration_queued')}
        </Callout>
      )}
      {/* The sheet editor's pickers (also the add-plan dialog's) read the directory and the kept counterparties through the form's services. */}
      <FormServicesProvider services={services}>
        <AddPlan contractId={contractId} performance={data} />
        {data.plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            contractId={contractId}
            inChange={data.inChange}
            alterationQueued={data.alterationQueued}
            contractStatus={data.contractStatus}
            actions={actions}
            contractForm={contractForm}
          />
        ))}
      </FormServicesProvider>
      {data.looseTasks.length > 0 && (
        <section className="fulfilment-plan" data-testid="loose-tasks">
          <h3 className="fulfilment-plan__title">{t('fulfilment.looseTasks')}</h3>
          <SheetTable
            columns={[
              { id: 'name', name: t('fulfilment.taskName'), type: 'text', isRequired: false, isState: false },
              { id: 'expirationTime', name: t('fulfilment.dueDate'), type: 'date', isRequired: false, isState: false },
            ]}
            tasks={data.looseTasks}
            selectable={false}
            selected={new Set()}
            onSelect={() => undefined}
            finishLocked={data.inChange || data.alterationQueued}
            {...actions}
          />
        </section>
      )}
      {taskActions.dialogs}
      {relating && <RelateDialog task={relating} onClose={() => setRelating(null)} />}
    </div>
  );
}
