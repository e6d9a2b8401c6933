import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Money } from '../../../src-shared/domain/money';
import { formFieldSchema, moneySchema, type FormField } from '../../../src-shared/form/field-config';
import type { SheetTask } from '../../../src-shared/ipc/fulfilment';
import { finishAmountField } from '../../../src-shared/rules/performance';
import { useFinishFormQuery, useFinishTaskMutation, useFinishTasksMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { ContractForm, type ContractFormHandle } from '../contract-form';
import { shownFields } from './performanceNames';

// The finish dialog (spec 2 "finish task with extra fields"): the task's completion form
// (complete_form, kept in the replica per performance) rendered by the generic form, with the
// predecessor warning; in view mode the finished values, read-only. A batch asks the completion
// amount per task, each starting from the task's own amount: one amount typed for the batch
// would be recorded on every task.

/** What the dialog needs of a single task: a sheet row, or a dashboard card (a quick task). */
export type FinishTask = Pick<SheetTask, 'id' | 'name'>;

export type FinishTarget = { kind: 'one' | 'view'; task: FinishTask } | { kind: 'batch'; tasks: SheetTask[] };

/** The batch form's field of a task's completion amount. */
const taskAmountField = (task: SheetTask) => `${finishAmountField}-${task.id}`;

const ownAmount = (task: SheetTask): Money | null => task.receivableAmount ?? task.payableAmount;

/**
 * The batch's form: the completion form with its amount field replaced, where it stands, by one
 * amount field per task, named after the task.
 */
function batchFields(fields: FormField[], tasks: readonly SheetTask[], label: (task: SheetTask) => string): FormField[] {
  return fields.flatMap((field) => (field.id === finishAmountField ? tasks.map((task) => ({ ...field, id: taskAmountField(task), name: label(task) })) : [field]));
}

function withUnitShown(field: FormField): FormField {
  return { ...field, fieldConfig: { ...field.fieldConfig, money: { ...field.fieldConfig?.money, isWithUnit: true } } };
}

export function FinishDialog({ target, onClose }: { target: FinishTarget; onClose(): void }) {
  const { t } = useTranslation();
  const first = target.kind === 'batch' ? target.tasks[0]! : target.task;
  const batch = target.kind === 'batch' ? target.tasks : null;
  // A batch's warning is the batch's: a row's predecessors finishing in it first hold nothing back.
  const { data: form, error } = useFinishFormQuery(batch ? { taskId: first.id, batch: batch.slice(1).map((task) => task.id) } : first.id);
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries((batch ?? []).flatMap((task) => (ownAmount(task) ? [[taskAmountField(task), ownAmount(task)]] : []))),
  );
  const handle = useRef<ContractFormHandle>(null);
  const [finishOne, one] = useFinishTaskMutation();
  const [finishMany, many] = useFinishTasksMutation();
  const failed = useActionFailure();
  const viewing = target.kind === 'view';
  // The server refuses a finish its unfinished predecessors hold back (the core at once, with the same reason): warned, not offered.
  const blocked = form !== undefined && !viewing && form.blockingPredecessors.length > 0;
  // A field type the generic form does not know is left out rather than failing the dialog.
  const fields = useMemo(() => {
    const known = shownFields(t, (form?.fields ?? []).flatMap((field) => {
      const parsed = formFieldSchema.safeParse(field);
      return parsed.success ? [parsed.data] : [];
    }));
    if (batch) return batchFields(known, batch, (task) => t('fulfilment.taskAmount', { name: task.name }));
    // The finished amount is read with its currency ("1,234.50 CNY"), not a bare number.
    return viewing ? known.map((field) => (field.id === finishAmountField ? withUnitShown(field) : field)) : known;
  }, [form, t, batch, viewing]);

  const title =
    target.kind === 'batch' ? t('fulfilment.batchTitle', { count: target.tasks.length }) : t(viewing ? 'fulfilment.viewTitle' : 'fulfilment.finishTitle', { name: first.name });

  async function submit() {
    const checked = await handle.current?.submit().catch(() => null);
    if (!checked) return;
    // Queued on this device: the toast says so; a refusal by the server shows on the task's row.
    const done = batch
      ? finishMany(batchRequest(batch, checked)).unwrap().then(() => t('fulfilment.batchFinished'))
      : finishOne(oneRequest(first, checked)).unwrap().then(() => t('fulfilment.finished'));
    await done.then((message) => {
      showNotice(message);
      onClose();
    }, failed);
  }

  return (
    <Dialog isOpen onClose={onClose} title={title} className="fulfilment-finish">
      <div data-testid="finish-dialog">
        <DialogBody>
          {error && <Callout intent="danger">{errorText(t, error)}</Callout>}
          {!form && !error && <Spinner size={20} />}
          {blocked && (
            <Callout intent="warning" icon="warning-sign" className="fulfilment-finish__warning" data-testid="predecessor-warning">
              {t(target.kind === 'batch' ? 'predecessors.batchWarning' : 'predecessors.warning', {
                names: form.blockingPredecessors.map((task) => t('predecessors.quoted', { name: task.name })).join(t('predecessors.separator')),
              })}
            </Callout>
          )}
          {form && batch && form.fields.some((field) => field.id === finishAmountField) && (
            <p className="fulfilment-finish__note" data-testid="finish-amounts-note">
              {t('fulfilment.amountPerTask')}
            </p>
          )}
          {form && (
            <ContractForm
              ref={handle}
              fields={fields}
              mode={viewing ? 'preview' : 'edit'}
              values={viewing ? (form.values ?? {}) : values}
              onValuesChange={setValues}
            />
          )}
        </DialogBody>
        <DialogFooter
          actions={
            viewing ? (
              <Button data-testid="finish-close" text={t('fulfilment.close')} onClick={onClose} />
            ) : (
              <>
                <Button data-testid="finish-cancel" text={t('fulfilment.cancel')} onClick={onClose} />
                <Button intent="primary" data-testid="finish-confirm" loading={one.isLoading || many.isLoading} disabled={!form || blocked} text={t('fulfilment.confirm')} onClick={() => void submit()} />
              </>
            )
          }
        />
      </div>
    </Dialog>
  );
}

/** One task: the completion values, and the amount field's money as the finish amount (sent in major units; stored × 100). */
function oneRequest(task: FinishTask, checked: Record<string, unknown>) {
  const money = moneySchema.safeParse(checked[finishAmountField]);
  return { id: task.id, configFields: checked, ...(money.success && { amount: money.data.amount / 100 }) };
}

/** A batch: the values the tasks share, and each task's own completion amount as entered for it. */
function batchRequest(tasks: readonly SheetTask[], checked: Record<string, unknown>) {
  const amountFields = new Set(tasks.map(taskAmountField));
  const configFields = Object.fromEntries(Object.entries(checked).filter(([id]) => !amountFields.has(id)));
  const finishAmounts = Object.fromEntries(
    tasks.flatMap((task) => {
      const money = moneySchema.safeParse(checked[taskAmountField(task)]);
      return money.success ? [[task.id, money.data]] : [];
    }),
  );
  return {
    performanceId: tasks[0]!.performanceId!,
    planIDList: tasks.map((task) => task.id),
    configFields,
    ...(Object.keys(finishAmounts).length > 0 && { finishAmounts }),
  };
}
