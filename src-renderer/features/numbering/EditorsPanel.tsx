import { useState } from 'react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, Tag } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { DirectoryDepartment, DirectoryUser } from '../../../src-shared/api/directory';
import type { AppError } from '../../../src-shared/errors';
import { showNotice } from '../../app/toaster';
import { failureText } from '../manage/issues';
import { useServerWrite } from '../manage/serverData';

interface EditorsPanelProps {
  editors: readonly string[];
  users: readonly DirectoryUser[];
  departments: readonly DirectoryDepartment[];
  /** Administrators save the list and designate departments; everyone reads the list. */
  isAdmin: boolean;
}

/** Who may edit an automatic contract number (spec 6), and users' main departments (rule scope 2). */
export function EditorsPanel({ editors, users, departments, isAdmin }: EditorsPanelProps) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(editors));
  const [failure, setFailure] = useState<string | null>(null);
  const [userId, setUserId] = useState(users[0]?.id ?? '');
  const [departmentId, setDepartmentId] = useState(departments[0]?.id ?? '');
  const nameOf = (id: string) => users.find((user) => user.id === id)?.name ?? id;

  async function run(action: () => Promise<unknown>) {
    setFailure(null);
    try {
      await action();
      showNotice(t('manage.done'));
    } catch (cause) {
      setFailure(failureText(t, cause as AppError | SerializedError));
    }
  }

  function toggle(id: string) {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  return (
    <div className="numbering__editors" data-testid="number-editors">
      {failure && (
        <Callout intent="danger" icon="error" role="alert" className="manage__failure" data-testid="editors-failure">
          {failure}
        </Callout>
      )}
      <h4 className="manage__subtitle">{t('manage.numbering.editorsTitle')}</h4>
      <p className="manage__muted">{t('manage.numbering.editorsHint')}</p>
      {isAdmin ? (
        <>
          <div className="numbering__editor-choices">
            {users.map((user) => (
              <Checkbox key={user.id} checked={chosen.has(user.id)} label={user.name} onChange={() => toggle(user.id)} data-testid="editor-choice" />
            ))}
          </div>
          <Button
            intent="primary"
            icon="floppy-disk"
            text={t('manage.numbering.saveEditors')}
            data-testid="save-editors"
            onClick={() => void run(() => write('saveContractNumberEditors', { body: { editors: [...chosen] } }))}
          />
        </>
      ) : (
        <div className="numbering__editor-list" data-testid="editor-list">
          {editors.length === 0 ? t('manage.numbering.noEditors') : editors.map((id) => <Tag key={id} minimal>{nameOf(id)}</Tag>)}
        </div>
      )}
      {isAdmin && (
        <>
          <h4 className="manage__subtitle">{t('manage.numbering.designateTitle')}</h4>
          <p className="manage__muted">{t('manage.numbering.designateHint')}</p>
          <div className="manage__header">
            <FormGroup label={t('manage.numbering.user')} labelFor="designate-user" inline>
              <HTMLSelect id="designate-user" value={userId} options={users.map((user) => ({ value: user.id, label: user.name }))} onChange={(event) => setUserId(event.currentTarget.value)} />
            </FormGroup>
            <FormGroup label={t('manage.numbering.department')} labelFor="designate-department" inline>
              <HTMLSelect
                id="designate-department"
                value={departmentId}
                options={departments.map((department) => ({ value: department.id, label: department.name }))}
                onChange={(event) => setDepartmentId(event.currentTarget.value)}
              />
            </FormGroup>
            <Button
              icon="tick"
              text={t('manage.numbering.designate')}
              data-testid="designate"
              disabled={!userId || !departmentId}
              onClick={() => void run(() => write('designateDepartment', { body: { userId, departmentId } }))}
            />
          </div>
        </>
      )}
    </div>
  );
}
