import { useState } from 'react';
import { FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { disabledState, lawFirmInputSchema, lawyerInputSchema } from '../../../src-shared/api/law-firms';
import { caseTypeCreateSchema, caseTypeUpdateSchema } from '../../../src-shared/api/ledger';
import type { AppError } from '../../../src-shared/errors';
import { showFailure, showNotice } from '../../app/toaster';
import { FormDialog } from '../manage/FormDialog';
import { failureText, fieldIssues } from '../manage/issues';
import { useServerRead, useServerWrite } from '../manage/serverData';

// The law firms screen's writes (issue 31): a law firm, a lawyer or a case type created or
// edited in one dialog, and disabled or enabled again from its row. All are online only: offline
// the write is refused at once with the app's offline message.

/** What a dialog writes: a new row (id null) or an existing one, with the fields of its kind. */
export type LegalEditing =
  | { kind: 'lawFirm'; id: string | null; name: string; state: number }
  | { kind: 'lawyer'; id: string | null; name: string; state: number; lawFirmID: string }
  | { kind: 'caseType'; id: string | null; name: string; state: number; parent: { id: string; name: string } | null };

const titleKeys = {
  lawFirm: ['manage.legal.createLawFirm', 'manage.legal.editLawFirm'],
  lawyer: ['manage.legal.createLawyer', 'manage.legal.editLawyer'],
  caseType: ['manage.legal.createCaseType', 'manage.legal.editCaseType'],
} as const;

/** Sends a row's write; the result as a toast (the row's state shows in the list). */
export function useLegalWrite() {
  const { t } = useTranslation();
  const write = useServerWrite();
  const send = (editing: LegalEditing, state: 1 | typeof disabledState) => {
    const body = { name: editing.name, state };
    const id = editing.id ?? '';
    switch (editing.kind) {
      case 'lawFirm':
        return editing.id ? write('lawFirmUpdate', { params: { id }, body }) : write('lawFirmCreate', { body });
      case 'lawyer':
        return editing.id ? write('lawyerUpdate', { params: { id }, body: { ...body, lawFirmID: editing.lawFirmID } }) : write('lawyerCreate', { body: { ...body, lawFirmID: editing.lawFirmID } });
      case 'caseType':
        return editing.id ? write('caseTypeUpdate', { params: { id }, body }) : write('caseTypeCreate', { body: { ...body, parentId: editing.parent?.id ?? null } });
    }
  };
  /** Disables an enabled row or enables a disabled one, keeping its other fields. */
  const switchState = async (editing: LegalEditing) => {
    const disabling = editing.state !== disabledState;
    try {
      await send(editing, disabling ? disabledState : 1);
      showNotice(t(disabling ? 'manage.legal.disabledNotice' : 'manage.legal.enabledNotice', { name: editing.name }));
    } catch (cause) {
      showFailure(failureText(t, cause as AppError | SerializedError));
    }
  };
  return { send, switchState };
}

/** The shared schema of the write, so the dialog refuses at once what the server would. */
function check(editing: LegalEditing) {
  const fields = { name: editing.name, state: editing.state };
  switch (editing.kind) {
    case 'lawFirm':
      return lawFirmInputSchema.safeParse(fields);
    case 'lawyer':
      return lawyerInputSchema.safeParse({ ...fields, lawFirmID: editing.lawFirmID });
    case 'caseType':
      return editing.id ? caseTypeUpdateSchema.safeParse(fields) : caseTypeCreateSchema.safeParse({ ...fields, parentId: editing.parent?.id ?? null });
  }
}

/** Creates or edits a law firm, a lawyer or a case type: its name, its firm or parent, and whether it is enabled. */
export function LegalDialog({ editing, onClose }: { editing: LegalEditing; onClose(): void }) {
  const { t } = useTranslation();
  const { send } = useLegalWrite();
  const [fields, setFields] = useState(editing);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const firms = useServerRead('lawFirmList', {}, { skip: editing.kind !== 'lawyer' });

  async function submit(): Promise<boolean> {
    const checked = check(fields);
    if (!checked.success) {
      setIssues(fieldIssues(checked.error, t));
      return false;
    }
    await send({ ...fields, name: checked.data.name }, fields.state === disabledState ? disabledState : 1);
    showNotice(t('manage.done'));
    return true;
  }

  // A disabled firm is not offered to a lawyer, unless it is the lawyer's own already.
  const firmOptions = (firms.answer?.value.list ?? []).filter((firm) => firm.state !== disabledState || (editing.kind === 'lawyer' && firm.id === editing.lawFirmID));
  const [createKey, editKey] = titleKeys[editing.kind];

  return (
    <FormDialog title={t(editing.id ? editKey : createKey)} width={450} onClose={onClose} onSubmit={submit}>
      {fields.kind === 'caseType' && !fields.id && (
        <FormGroup label={t('manage.legal.parent')}>
          <p data-testid="legal-parent">{fields.parent?.name ?? t('manage.legal.topLevel')}</p>
        </FormGroup>
      )}
      <FormGroup label={t('manage.legal.name')} labelFor="legal-name" labelInfo="*" intent={issues.name ? 'danger' : 'none'} helperText={issues.name}>
        <InputGroup
          id="legal-name"
          autoFocus
          value={fields.name}
          maxLength={200}
          intent={issues.name ? 'danger' : 'none'}
          onValueChange={(name) => setFields((current) => ({ ...current, name }))}
          data-testid="legal-name"
        />
      </FormGroup>
      {fields.kind === 'lawyer' && (
        <FormGroup label={t('manage.legal.lawFirm')} labelFor="legal-law-firm" labelInfo="*" intent={issues.lawFirmID ? 'danger' : 'none'} helperText={issues.lawFirmID}>
          <HTMLSelect
            id="legal-law-firm"
            fill
            value={fields.lawFirmID}
            options={[{ value: '', label: t('manage.legal.chooseLawFirm') }, ...firmOptions.map((firm) => ({ value: firm.id, label: firm.name }))]}
            onChange={(event) => {
              const lawFirmID = event.currentTarget.value;
              setFields((current) => ({ ...current, lawFirmID }));
            }}
            data-testid="legal-law-firm"
          />
        </FormGroup>
      )}
      <Switch
        label={t('manage.legal.enabledSwitch')}
        checked={fields.state !== disabledState}
        onChange={(event) => {
          const state = event.currentTarget.checked ? 1 : disabledState;
          setFields((current) => ({ ...current, state }));
        }}
        data-testid="legal-enabled"
      />
    </FormDialog>
  );
}
