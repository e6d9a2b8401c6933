import { useState } from 'react';
import { Button, FormGroup, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { saveAbbrSettingSchema } from '../../../src-shared/api/numbering';
import { NumberDateFormat, RuleScope } from '../../../src-shared/domain/enums';
import type { AbbrSetting, NumberingKind } from '../../../src-shared/domain/numbering';
import { formatDatePart } from '../../../src-shared/rules/numbering';
import { DeleteAlert } from '../manage/DeleteAlert';
import { FormDialog } from '../manage/FormDialog';
import { fieldIssues } from '../manage/issues';
import { useServerWrite } from '../manage/serverData';
import { numberingEndpoints } from './numberingEndpoints';
import type { ScopeTarget } from './useScopeTargets';

const ruleScopes = Object.values(RuleScope);
const dateFormats = Object.values(NumberDateFormat);
const noDate = 'none';

interface AbbrSettingsProps {
  kind: NumberingKind;
  settings: readonly AbbrSetting[];
  targetsOf(scope: RuleScope): ScopeTarget[];
  nameOf(scope: RuleScope, id: string | null): string | null;
  canSave: boolean;
}

/** The abbreviations and date parts numbers begin with, per scope and contract type or department. */
export function AbbrSettings({ kind, settings, targetsOf, nameOf, canSave }: AbbrSettingsProps) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [editing, setEditing] = useState<AbbrSetting | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AbbrSetting | null>(null);
  const now = new Date();

  return (
    <div className="numbering__abbr" data-testid={`abbr-${kind}`}>
      <div className="manage__header">
        <h4 className="manage__subtitle">{t('manage.numbering.abbrTitle')}</h4>
        {canSave && <Button icon="add" text={t('manage.numbering.addAbbr')} onClick={() => setEditing('new')} data-testid={`add-abbr-${kind}`} />}
      </div>
      <div className="manage__table">
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('manage.numbering.ruleScopeLabel')}</th>
              <th>{t('manage.numbering.target')}</th>
              <th>{t('manage.numbering.abbr')}</th>
              <th>{t('manage.numbering.dateFormatLabel')}</th>
              {canSave && <th>{t('manage.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {settings.length === 0 && (
              <tr>
                <td colSpan={canSave ? 5 : 4}>{t('manage.numbering.noAbbr')}</td>
              </tr>
            )}
            {settings.map((setting) => (
              <tr key={setting.id} data-testid="abbr-row">
                <td>{t('manage.numbering.ruleScope', { returnObjects: true })[setting.ruleScope]}</td>
                <td>{nameOf(setting.ruleScope, setting.scopeId) ?? '--'}</td>
                <td>{setting.abbr || '--'}</td>
                <td>{setting.dateFormat === null ? t('manage.numbering.noDate') : `${t('manage.numbering.dateFormat', { returnObjects: true })[setting.dateFormat]} (${formatDatePart(setting.dateFormat, now)})`}</td>
                {canSave && (
                  <td>
<div className="manage__row-actions">
                    <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={() => setEditing(setting)} />
                    <Button variant="minimal" icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setDeleting(setting)} />
                  </div>
</td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {editing && <AbbrDialog kind={kind} setting={editing === 'new' ? null : editing} targetsOf={targetsOf} onClose={() => setEditing(null)} />}
      {deleting && (
        <DeleteAlert
          name={deleting.abbr || t('manage.numbering.ruleScope', { returnObjects: true })[deleting.ruleScope]}
          onClose={() => setDeleting(null)}
          onConfirm={() => write(numberingEndpoints[kind].deleteAbbr, { query: { id: deleting.id } })}
        />
      )}
    </div>
  );
}

interface AbbrDialogProps {
  kind: NumberingKind;
  setting: AbbrSetting | null;
  targetsOf(scope: RuleScope): ScopeTarget[];
  onClose(): void;
}

function AbbrDialog({ kind, setting, targetsOf, onClose }: AbbrDialogProps) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [scope, setScope] = useState<RuleScope>(setting?.ruleScope ?? RuleScope.Default);
  const [scopeId, setScopeId] = useState<string | null>(setting?.scopeId ?? null);
  const [abbr, setAbbr] = useState(setting?.abbr ?? '');
  const [dateFormat, setDateFormat] = useState<NumberDateFormat | null>(setting?.dateFormat ?? null);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const targets = targetsOf(scope);

  async function submit(): Promise<boolean> {
    if (scope !== RuleScope.Default && scopeId === null) {
      setIssues({ scopeId: t('manage.numbering.invalid.target') });
      return false;
    }
    const checked = saveAbbrSettingSchema.safeParse({ ruleScope: scope, scopeId, abbr, dateFormat });
    if (!checked.success) {
      setIssues(fieldIssues(checked.error, t));
      return false;
    }
    await write(numberingEndpoints[kind].saveAbbr, { body: checked.data });
    return true;
  }

  return (
    <FormDialog title={setting ? t('manage.numbering.editAbbr') : t('manage.numbering.addAbbr')} width={450} onClose={onClose} onSubmit={submit}>
      <FormGroup label={t('manage.numbering.ruleScopeLabel')} labelFor="abbr-scope">
        <HTMLSelect
          id="abbr-scope"
          fill
          value={scope}
          disabled={setting !== null}
          options={ruleScopes.map((value) => ({ value, label: t('manage.numbering.ruleScope', { returnObjects: true })[value] }))}
          onChange={(event) => {
            const next = Number(event.currentTarget.value) as RuleScope;
            setScope(next);
            setScopeId(next === RuleScope.Default ? null : (targetsOf(next)[0]?.id ?? null));
          }}
        />
      </FormGroup>
      {scope !== RuleScope.Default && (
        <FormGroup label={t('manage.numbering.target')} labelFor="abbr-target" intent={issues.scopeId ? 'danger' : 'none'} helperText={issues.scopeId}>
          <HTMLSelect
            id="abbr-target"
            fill
            value={scopeId ?? ''}
            disabled={setting !== null}
            options={targets.map((target) => ({ value: target.id, label: target.name }))}
            onChange={(event) => setScopeId(event.currentTarget.value)}
          />
        </FormGroup>
      )}
      <FormGroup label={t('manage.numbering.abbr')} labelFor="abbr-text" intent={issues.abbr ? 'danger' : 'none'} helperText={issues.abbr}>
        <InputGroup id="abbr-text" value={abbr} maxLength={20} intent={issues.abbr ? 'danger' : 'none'} onValueChange={setAbbr} autoFocus />
      </FormGroup>
      <FormGroup label={t('manage.numbering.dateFormatLabel')} labelFor="abbr-date">
        <HTMLSelect
          id="abbr-date"
          fill
          value={dateFormat ?? noDate}
          options={[{ value: noDate, label: t('manage.numbering.noDate') }, ...dateFormats.map((value) => ({ value, label: t('manage.numbering.dateFormat', { returnObjects: true })[value] }))]}
          onChange={(event) => setDateFormat(event.currentTarget.value === noDate ? null : (Number(event.currentTarget.value) as NumberDateFormat))}
        />
      </FormGroup>
    </FormDialog>
  );
}
