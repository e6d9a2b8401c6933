import { useMemo, useRef, useState } from 'react';
import { Button, Callout, Card, FormGroup, H2, H4, HTMLSelect, InputGroup, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { withBookmarkMapped } from '../../../src-shared/contract-document/mapping';
import type { Clause, TemplateDetail } from '../../../src-shared/domain/contract-forms';
import type { FieldType } from '../../../src-shared/domain/enums';
import type { AppError } from '../../../src-shared/errors';
import { duplicateCheckRequest, duplicateDialog, type DuplicateCheckRequest, type DuplicateDialog } from '../../../src-shared/form/contract-number';
import { duplicateResultSchema, formFieldsSchema, type FormField } from '../../../src-shared/form/field-config';
import { formMessageText } from '../contract-form/fields/complex/services';
import { useTemplateApprovalStepMutation } from '../../api/api';
import { LinkButton } from '../../app/LinkButton';
import { showNotice } from '../../app/toaster';
import type { ContractFormHandle, FormServices } from '../contract-form';
import { DuplicateNumberDialog } from '../contract-form/fields/complex/contract-number/ContractNumberField';
import { ApprovalActions } from '../contracts/ApprovalActions';
import { DraftForm } from '../contracts/DraftForm';
import { useBridgeFormServices } from '../contracts/useBridgeFormServices';
import { TemplateDocumentSection } from '../contract-document/TemplateDocumentSection';
import { ContractStatusCell } from '../ledger/ContractStatusCell';
import { failureText } from '../manage/issues';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { changeRefusal } from './changeRefusal';
import { ClauseList } from './ClauseList';
import { FieldList } from './FieldCard';
import { draftIssueText } from './issueText';
import { editorPath, templatesPath } from './paths';
import {
  draftIssues,
  draftOf,
  fieldTypeChoices,
  issuesAt,
  newField,
  requestBody,
  withClause,
  withClauseChanged,
  withoutClause,
  withoutField,
  type DraftIssue,
  type TemplateDraft,
} from './templateDraft';
import './templates.css';

// The template editor (issue 29): the template's name, number (with the spec's duplicate check)
// and contract type, its fields of the 33 types with their config, its clauses with statements,
// and beside them the form exactly as drafters will see it, drawn by the contract-form engine
// from the fields being written. A save is checked by the same rules the server applies; saves
// and approval steps go to the server (refused at once offline).

/**
 * The template's Word document (issue 29, item 2; the contract-document feature): the app mounts
 * it as the editor's "Document" section. It reads the template as saved and the draft's fields
 * and clauses, whose bookmarks it maps.
 */
type Section = 'basic' | 'fields' | 'clauses' | 'document';

const duplicateResultsSchema = z.object({ list: z.array(duplicateResultSchema) });

/** The drafting form on the fields as written; values typed into it are the preview's own. */
function PreviewForm({ fields, clauses, services }: { fields: readonly FormField[]; clauses: readonly Clause[]; services: FormServices }) {
  const formRef = useRef<ContractFormHandle>(null);
  const [values, setValues] = useState<Record<string, unknown>>({});
  return <DraftForm services={services} fields={fields} clauses={clauses} contractId={null} formRef={formRef} mode="edit" values={values} onValuesChange={setValues} />;
}

function TemplatePreview({ draft, issues, services }: { draft: TemplateDraft; issues: readonly DraftIssue[]; services: FormServices }) {
  const { t } = useTranslation();
  const parsed = useMemo(() => formFieldsSchema.safeParse(draft.fields), [draft.fields]);
  const broken = !parsed.success || issues.some((issue) => issue.path.startsWith('fields') || issue.path.startsWith('clauses'));
  // A value typed for a field is dropped when the fields' keys or types change (a text value is no amount).
  const shape = draft.fields.map((field) => `${field.id}:${field.type}`).join('|');
  return (
    <Card className="template-editor__preview" data-testid="template-preview">
      <H4>{t('templates.editor.preview')}</H4>
      <p className="bp6-text-muted">{t('templates.editor.previewNote')}</p>
      {draft.fields.length === 0 ? (
        <NonIdealState icon="form" title={t('templates.editor.previewEmpty')} />
      ) : broken ? (
        <Callout intent="warning" icon="warning-sign" data-testid="template-preview-broken">
          {t('templates.editor.previewBroken')}
        </Callout>
      ) : (
        <PreviewForm key={shape} fields={parsed.data} clauses={draft.clauses} services={services} />
      )}
    </Card>
  );
}

/** The template number: empty for one from the rules, else checked for duplicates with the spec's dialog. */
function NumberInput({ draft, templateId, readOnly, services, onChange }: { draft: TemplateDraft; templateId: string | null; readOnly: boolean; services: FormServices; onChange(number: string): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DuplicateDialog | null>(null);
  const [checking, setChecking] = useState(false);

  function check(request: DuplicateCheckRequest) {
    setMessage(null);
    setChecking(true);
    const query: Record<string, string> = { ...('checkAll' in request ? { checkAll: 'true' } : { contractNumber: request.contractNumber }), ...(templateId && { excludeId: templateId }) };
    services.onlineCall('templateNumberCheckDuplicate', { query }).then(
      (answer) => {
        setChecking(false);
        const parsed = duplicateResultsSchema.safeParse(answer);
        if (parsed.success) setDialog(duplicateDialog(request, parsed.data.list, 'templates'));
      },
      (failure: unknown) => {
        setChecking(false);
        const error = failure as AppError;
        setMessage(error.code === 'offline' ? t('templates.editor.checkWhenOnline') : failureText(t, error));
      },
    );
  }

  return (
    <FormGroup label={t('templates.editor.number')} labelFor="template-number" helperText={message} intent={message ? 'danger' : 'none'}>
      <div className="template-field__row">
        <InputGroup
          id="template-number"
          data-testid="template-number"
          value={draft.templateNumber}
          maxLength={100}
          disabled={readOnly}
          placeholder={t('templates.editor.numberPlaceholder')}
          onValueChange={onChange}
          className="template-editor__number"
        />
        <Button
          loading={checking}
          text={t('templates.editor.checkDuplicate')}
          data-testid="template-number-check"
          onClick={() => {
            const request = duplicateCheckRequest(draft.templateNumber);
            if (request.ok) check(request.value);
            else setMessage(formMessageText(t, request.message));
          }}
        />
        <Button variant="minimal" disabled={checking} text={t('templates.editor.checkAll')} data-testid="template-number-check-all" onClick={() => check({ checkAll: true })} />
      </div>
      {dialog && (
        <DuplicateNumberDialog
          dialog={dialog}
          onClose={() => setDialog(null)}
          onView={(id) => {
            setDialog(null);
            void navigate(editorPath(id));
          }}
        />
      )}
    </FormGroup>
  );
}

function TemplateEditor({ template, services }: { template: TemplateDetail | null; services: FormServices }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const write = useServerWrite();
  const [step] = useTemplateApprovalStepMutation();
  const types = useServerRead('contractTypeList');
  const [saved, setSaved] = useState<TemplateDetail | null>(template);
  const [draft, setDraft] = useState<TemplateDraft>(() => draftOf(template));
  const [section, setSection] = useState<Section>('basic');
  const [newType, setNewType] = useState<FieldType>('text');
  const [checked, setChecked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const refusal = saved ? changeRefusal(saved, user) : null;
  const readOnly = refusal !== null;
  const issues = useMemo(() => draftIssues(draft), [draft]);
  const shownIssues = checked ? issues : [];
  const dirty = JSON.stringify(requestBody(draft)) !== JSON.stringify(requestBody(draftOf(saved)));

  async function save() {
    setChecked(true);
    setFailure(null);
    if (issues.length > 0) return;
    setSaving(true);
    try {
      const body = requestBody(draft);
      const next = saved ? await write('updateTemplate', { params: { id: saved.id }, body }) : await write('createTemplate', { body });
      setSaved(next);
      setDraft(draftOf(next));
      setChecked(false);
      showNotice(t(saved ? 'templates.editor.saved' : 'templates.editor.created'));
      if (!saved) void navigate(editorPath(next.id), { replace: true });
    } catch (cause) {
      setFailure(failureText(t, cause as AppError | SerializedError));
    } finally {
      setSaving(false);
    }
  }

  const change = (next: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...next }));
  const sectionIssues = (path: string) => issuesAt(shownIssues, path).length;
  const tabTitle = (text: string, count: number) => (count > 0 ? `${text} (${count})` : text);

  return (
    <section className="contract-screen template-editor" data-testid="template-editor">
      <div>
        <LinkButton variant="minimal" icon="arrow-left" to={templatesPath} text={t('templates.editor.back')} />
      </div>
      <header className="template-editor__header">
        <H2 data-testid="template-editor-title">{saved ? saved.name : t('templates.editor.newTitle')}</H2>
        {saved && (
          <span data-testid="template-editor-status">
            <ContractStatusCell status={saved.status} />
          </span>
        )}
        <div className="template-editor__actions" role="toolbar">
          {!readOnly && <Button intent="primary" icon="floppy-disk" loading={saving} disabled={saved !== null && !dirty} text={t('templates.editor.save')} data-testid="template-save" onClick={() => void save()} />}
          {saved && !dirty && (
            <ApprovalActions
              subject="template"
              name={saved.name}
              status={saved.status}
              take={async (action, comment) => {
                const next = await step({ id: saved.id, action, ...(comment !== undefined && { comment }) }).unwrap();
                setSaved(next);
                setDraft(draftOf(next));
              }}
              doneText={(action) => t(`approval.done.${action}`)}
            />
          )}
        </div>
      </header>
      {refusal && (
        <Callout compact icon="lock" data-testid="template-read-only">
          {t('templates.editor.readOnly')} {t(`templates.why.${refusal}`)}
        </Callout>
      )}
      {saved && dirty && !readOnly && (
        <Callout compact icon="info-sign" data-testid="template-unsaved">
          {t('templates.editor.submitFirstSave')}
        </Callout>
      )}
      {failure && (
        <Callout intent="danger" icon="error" role="alert" data-testid="template-save-failure">
          {failure}
        </Callout>
      )}
      {shownIssues.length > 0 && (
        <Callout intent="danger" icon="error" role="alert" data-testid="template-issues">
          {t('templates.editor.issues', { count: shownIssues.length })}
        </Callout>
      )}
      <div className="template-editor__body">
        <Card className="template-editor__sections">
          <Tabs id="template-sections" selectedTabId={section} onChange={(next) => setSection(next as Section)} renderActiveTabPanelOnly>
            <Tab
              id="basic"
              title={tabTitle(t('templates.editor.sections.basic'), sectionIssues('name') + sectionIssues('templateNumber'))}
              data-testid="template-tab-basic"
              panel={
                <div className="template-editor__basic">
                  <FormGroup
                    label={t('templates.editor.name')}
                    labelFor="template-name"
                    labelInfo="*"
                    intent={issuesAt(shownIssues, 'name').length > 0 ? 'danger' : 'none'}
                    helperText={issuesAt(shownIssues, 'name').map((issue) => draftIssueText(t, issue))[0]}
                  >
                    <InputGroup
                      id="template-name"
                      data-testid="template-name"
                      value={draft.name}
                      maxLength={200}
                      disabled={readOnly}
                      placeholder={t('templates.editor.namePlaceholder')}
                      onValueChange={(name) => change({ name })}
                    />
                  </FormGroup>
                  <NumberInput draft={draft} templateId={saved?.id ?? null} readOnly={readOnly} services={services} onChange={(templateNumber) => change({ templateNumber })} />
                  <FormGroup label={t('templates.editor.contractType')} labelFor="template-contract-type">
                    <HTMLSelect
                      id="template-contract-type"
                      data-testid="template-contract-type"
                      value={draft.contractTypeId ?? ''}
                      disabled={readOnly}
                      onChange={(event) => change({ contractTypeId: event.currentTarget.value === '' ? null : event.currentTarget.value })}
                      options={[{ value: '', label: t('templates.editor.noContractType') }, ...(types.answer?.value.list ?? []).map((type) => ({ value: type.id, label: type.name }))]}
                    />
                  </FormGroup>
                </div>
              }
            />
            <Tab
              id="fields"
              title={tabTitle(t('templates.editor.sections.fields'), sectionIssues('fields'))}
              data-testid="template-tab-fields"
              panel={
                <>
                  <FieldList
                    fields={draft.fields}
                    issues={shownIssues}
                    path="fields"
                    calculations
                    readOnly={readOnly}
                    onChange={(fields) => change({ fields })}
                    onRemove={(index) => setDraft((current) => withoutField(current, index))}
                  />
                  {!readOnly && (
                    <div className="template-field__row template-editor__add">
                      <HTMLSelect
                        aria-label={t('templates.field.type')}
                        data-testid="template-new-field-type"
                        value={newType}
                        onChange={(event) => setNewType(event.currentTarget.value as FieldType)}
                        options={fieldTypeChoices.map((type) => ({ value: type, label: t(`templates.types.${type}`) }))}
                      />
                      <Button
                        icon="add"
                        text={t('templates.field.add')}
                        data-testid="template-add-field"
                        onClick={() => setDraft((current) => ({ ...current, fields: [...current.fields, newField(newType, t(`templates.types.${newType}`), current.fields)] }))}
                      />
                    </div>
                  )}
                </>
              }
            />
            <Tab
              id="clauses"
              title={tabTitle(t('templates.editor.sections.clauses'), sectionIssues('clauses'))}
              data-testid="template-tab-clauses"
              panel={
                <>
                  <ClauseList
                    clauses={draft.clauses}
                    issues={shownIssues}
                    readOnly={readOnly}
                    onChange={(index, clause) => setDraft((current) => withClauseChanged(current, index, clause))}
                    onRemove={(labelID) => setDraft((current) => withoutClause(current, labelID))}
                  />
                  {!readOnly && (
                    <Button
                      icon="add"
                      className="template-editor__add"
                      text={t('templates.clause.add')}
                      data-testid="template-add-clause"
                      onClick={() => setDraft((current) => withClause(current, t('templates.clause.namePlaceholder'), t('templates.clause.statement', { n: 1 })))}
                    />
                  )}
                </>
              }
            />
            <Tab
              id="document"
              title={t('templates.editor.sections.document')}
              data-testid="template-tab-document"
              panel={
                <TemplateDocumentSection
                  fields={draft.fields}
                  clauses={draft.clauses}
                  document={draft.document}
                  onChange={(document) => change({ document })}
                  onMap={(bookmark, owner) => setDraft((current) => ({ ...current, ...withBookmarkMapped(current.fields, current.clauses, bookmark, owner) }))}
                  disabled={readOnly}
                />
              }
            />
          </Tabs>
        </Card>
        <TemplatePreview draft={draft} issues={issues} services={services} />
      </div>
    </section>
  );
}

/**
 * /templates/edit: a new template, or (`?id=`) a template as the server has it (as last read,
 * offline).
 */
export function TemplateEditorScreen() {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const id = query.get('id');
  const { services, error } = useBridgeFormServices();
  const read = useServerRead('templateDetail', { params: { id: id ?? '' } }, { skip: id === null });
  if (!services) {
    return error ? (
      <Callout intent="danger" icon="error" role="alert">
        {failureText(t, error)}
      </Callout>
    ) : null;
  }
  if (id === null) return <TemplateEditor key="new" template={null} services={services} />;
  return (
    <ReadState answer={read.answer} error={read.error}>
      {(template) => (
        // Another template starts the editor afresh; this one saved keeps its place (the editor holds what it saved).
        <TemplateEditor key={template.id} template={template} services={services} />
      )}
    </ReadState>
  );
}
