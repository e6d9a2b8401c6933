import { useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { quickTaskPayloadSchema, type QuickTaskPayload } from '../../../src-shared/domain/performance';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { DateInput } from '../../i18n/DateInput';
import { useCreateQuickTaskMutation } from './performanceApi';

// The quick performance task dialog (spec 3 "Quick task payload", spec 5): content and one required
// date, type custom, the related contract from the route. Checked by the shared schema the core
// and the server apply; queued, so it works offline.

const levels = [1, 2, 3, 4, 5] as const;
/** The payload's one default required date field (spec 3). */
const dateFieldId = 'performanceDate';

/** Which spec 5 message each part of the shared schema's refusal shows. */
const messageOf: Record<string, keyof Catalog['messages']> = { name: 'performanceContentRequired', fieldList: 'performanceDateRequired' };

export interface QuickTaskDialogProps {
  isOpen: boolean;
  onClose(): void;
  /** The contract of the route the dialog is opened from, if any. */
  contract?: { id: string; name: string };
}

export function QuickTaskDialog({ isOpen, onClose, contract }: QuickTaskDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [date, setDate] = useState('');
  const [level, setLevel] = useState<number | null>(null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [create, { isLoading }] = useCreateQuickTaskMutation();
  const failed = useActionFailure();

  const payload: QuickTaskPayload = {
    name,
    type: 'custom',
    ...(contract && { relatedID: contract.id }),
    ...(level !== null && { level }),
    fieldList: [{ id: dateFieldId, name: t('dashboard.quickTask.date'), type: 'date', required: true, ...(date && { value: date }) }],
  };
  const parsed = quickTaskPayloadSchema.safeParse(payload);
  const problems = new Map<string, string>();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = messageOf[String(issue.path[0])];
      if (key) problems.set(String(issue.path[0]), t(`messages.${key}`));
    }
  }
  const problem = (field: string) => (touched[field] ? problems.get(field) : undefined);

  function close() {
    setName('');
    setDate('');
    setLevel(null);
    setTouched({});
    onClose();
  }

  async function submit() {
    if (!parsed.success) return;
    const result = await create({ payload: parsed.data });
    if (result.error) {
      failed(result.error);
      return;
    }
    showNotice(t('dashboard.quickTask.created'));
    close();
  }

  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('dashboard.quickTask.title')} style={{ width: 520 }}>
      <DialogBody>
        <div data-testid="quick-task-form">
          <FormGroup label={t('dashboard.quickTask.content')} labelFor="quick-task-name" labelInfo="*" helperText={problem('name')} intent={problem('name') ? Intent.DANGER : Intent.NONE}>
            <InputGroup
              id="quick-task-name"
              data-testid="quick-task-name"
              value={name}
              maxLength={1000}
              intent={problem('name') ? Intent.DANGER : Intent.NONE}
              onValueChange={setName}
              onBlur={() => setTouched((was) => ({ ...was, name: true }))}
            />
          </FormGroup>
          <FormGroup label={t('dashboard.quickTask.date')} labelInfo="*" helperText={problem('fieldList')} intent={problem('fieldList') ? Intent.DANGER : Intent.NONE}>
            <div data-testid="quick-task-date">
              <DateInput
                value={date}
                invalid={problem('fieldList') !== undefined}
                onChange={(value) => {
                  setDate(value ?? '');
                  setTouched((was) => ({ ...was, fieldList: true }));
                }}
              />
            </div>
          </FormGroup>
          <FormGroup label={t('dashboard.quickTask.type')} labelFor="quick-task-type">
            <InputGroup id="quick-task-type" value={t('dashboard.quickTask.custom')} readOnly />
          </FormGroup>
          <FormGroup label={t('dashboard.quickTask.contract')} labelFor="quick-task-contract">
            <InputGroup id="quick-task-contract" data-testid="quick-task-contract" value={contract?.name ?? t('dashboard.quickTask.noContract')} readOnly />
          </FormGroup>
          <FormGroup label={t('dashboard.quickTask.level')} labelFor="quick-task-level">
            <HTMLSelect
              id="quick-task-level"
              value={level ?? ''}
              onChange={(event) => setLevel(event.currentTarget.value === '' ? null : Number(event.currentTarget.value))}
              options={[{ value: '', label: t('dashboard.quickTask.noContract') }, ...levels.map((value) => ({ value, label: t('dashboard.quickTask.levelValue', { level: value }) }))]}
            />
          </FormGroup>
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('dashboard.quickTask.cancel')} onClick={close} />
            <Button
              intent="primary"
              data-testid="quick-task-create"
              disabled={!parsed.success}
              loading={isLoading}
              text={t('dashboard.quickTask.create')}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </Dialog>
  );
}

/** The 'quick task' action with its dialog: on the dashboard, and on a contract's page with that contract. */
export function QuickTaskButton({ contract }: { contract?: { id: string; name: string } }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon="add" intent="primary" data-testid="quick-task-open" text={t('dashboard.quickTask.open')} onClick={() => setOpen(true)} />
      <QuickTaskDialog isOpen={open} onClose={() => setOpen(false)} contract={contract} />
    </>
  );
}
