import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formFieldSchema, moneySchema } from '../../../src-shared/form/field-config';
import type { SheetTask } from '../../../src-shared/ipc/fulfilment';
import { useFinishFormQuery, useFinishTaskMutation, useFinishTasksMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { ContractForm, type ContractFormHandle } from '../contract-form';
import { shownFields } from './performanceNames';

// The finish dialog (spec 2 "finish task with extra fields"): the task's completion form
// (complete_form, kept in the replica per performance) rendered by the generic form, with the
// predecessor warning; in view mode the finished values, read-only.

export type FinishTarget = { kind: 'one' | 'view'; task: SheetTask } | { kind: 'batch'; tasks: SheetTask[] };

/** The completion field whose money value is the finish amount (sent in major units; the server stores it × 100). */
const amountField = 'finishAmount';

export function FinishDialog({ target, onClose }: { target: FinishTarget; onClose(): void }) {
  const { t } = useTranslation();
  const first = target.kind === 'batch' ? target.tasks[0]! : target.task;
  // A batch's warning is the batch's: a row's predecessors finishing in it first hold nothing back.
  const { data: form, error } = useFinishFormQuery(target.kind === 'batch' ? { taskId: first.id, batch: target.tasks.slice(1).map((task) => task.id) } : first.id);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const handle = useRef<ContractFormHandle>(null);
  const [finishOne, one] = useFinishTaskMutation();
  const [finishMany, many] = useFinishTasksMutation();
  const failed = useActionFailure();
  const viewing = target.kind === 'view';
  // The server refuses a finish its unfinished predecessors hold back (the core at once, with the same reason): warned, not offered.
  const blocked = form !== undefined && !viewing && form.blockingPredecessors.length > 0;
  // A field type the generic form does not know is left out rather than failing the dialog.
  const fields = useMemo(() => shownFields(t, (form?.fields ?? []).flatMap((field) => {
    const parsed = formFieldSchema.safeParse(field);
    return parsed.success ? [parsed.data] : [];
  })), [form, t]);

  const title =
    target.kind === 'batch' ? t('fulfilment.batchTitle', { count: target.tasks.length }) : t(viewing ? 'fulfilment.viewTitle' : 'fulfilment.finishTitle', { name: first.name });

  async function submit() {
    const checked = await handle.current?.submit().catch(() => null);
    if (!checked) return;
    const money = moneySchema.safeParse(checked[amountField]);
    const done = target.kind === 'batch'
      ? finishMany({ performanceId: first.performanceId!, planIDList: target.tasks.map((task) => task.id), configFields: checked }).unwrap().then(() => t('fulfilment.batchFinished'))
      : finishOne({ id: first.id, configFields: checked, ...(money.success && { amount: money.data.amount / 100 }) }).unwrap().then(() => t('fulfilment.finished'));
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
