import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Clause as ClauseConfig } from '../../../../../../src-shared/domain/contract-forms';
import {
  chooseStatement,
  clauseStatements,
  hiddenStatementId,
  initialStatementId,
  insertStatement,
  type ClauseValue,
  type DocumentParagraph,
} from '../../../../../../src-shared/form/clause';
import { formFieldSchema, type Clause, type FormField } from '../../../../../../src-shared/form/field-config';
import type { FormIssue } from '../../../../../../src-shared/form/messages';
import { validateField } from '../../../../../../src-shared/form/validation';
import { fieldInputId } from '../../../ids';
import type { FieldComponent, FieldProps } from '../../../types';
import { useContractFormContext, useRegisterValidator } from '../services';

// A clause with selectable statements (spec 3 "Clause", spec 4 "Clause"): the chosen statement's
// fields render as sub-fields keyed by their position names, and its text is shown as it lands at
// the template's bookmark.

/** Prefix of the position names of clause fields in the document. */
export const clausePositionPrefix = 'clause';

const randomToken = () => crypto.randomUUID().slice(0, 8);

/** The clause as the template carries it, in the shape the shared clause rules take. */
export function toFormClause(clause: ClauseConfig): Clause {
  return {
    labelID: clause.labelID,
    isNullable: clause.isNullable,
    statementList: clause.statementList.map((statement) => ({
      id: statement.id,
      name: statement.name,
      content: statement.content.map((paragraph) =>
        paragraph.map((part) => (part.type === 'text' ? { kind: 'text' as const, text: part.text } : { kind: 'field' as const, fieldId: part.fieldId })),
      ),
      fieldList: statement.fieldList.map((f) => ({ id: f.id, name: f.name, ...(f.required !== undefined && { required: f.required }) })),
      labelItemList: statement.labelItemList,
    })),
  };
}

/** The full config of each statement field (for rendering it with the registry's component). */
function statementFieldConfigs(clause: ClauseConfig, statementId: number | null): Map<string, FormField> {
  const statement = clause.statementList.find((s) => s.id === statementId);
  return new Map((statement?.fieldList ?? []).map((f) => [f.id, formFieldSchema.parse(f)]));
}

/** Sub-form validation: each statement field's own rules (the required rule is the engine's clause rule). */
export function clauseSubFormIssues(clause: ClauseConfig, fieldKey: string, value: unknown): FormIssue[] {
  const clauseValue = value as ClauseValue | null | undefined;
  if (!clauseValue || clauseValue.statementId === null) return [];
  const configs = statementFieldConfigs(clause, clauseValue.statementId);
  return clauseValue.fieldList.flatMap((f) => {
    const config = configs.get(f.id);
    if (!config || !f.positionName) return [];
    return validateField({ ...config, required: false }, clauseValue.values[f.positionName]).map((issue) => ({ ...issue, field: `${fieldKey}.${f.positionName}` }));
  });
}

export function ClauseField(props: FieldProps<ClauseValue>) {
  const { t } = useTranslation();
  const { clauses } = useContractFormContext();
  const clause = clauses.find((c) => c.labelID === props.field.id);
  if (!clause) return <span>{t('form.noData')}</span>;
  return <ClauseEditor {...props} clause={clause} />;
}

function ClauseEditor({ field, value, mode, onChange, clause }: FieldProps<ClauseValue> & { clause: ClauseConfig }) {
  const { t } = useTranslation();
  const { templateApproval, fieldComponents } = useContractFormContext();
  const formClause = toFormClause(clause);
  const statements = clauseStatements(formClause);
  const selectedId = value?.statementId ?? null;
  const autoSelected = initialStatementId(formClause);

  useRegisterValidator(field.id, (values) => clauseSubFormIssues(clause, field.id, values[field.id]));

  // A clause with exactly one statement has it chosen from the start (spec 4), where the form is edited.
  useEffect(() => {
    if (mode === 'edit' && value?.statementId == null && autoSelected !== null) {
      const chosen = chooseStatement(formClause, autoSelected, clausePositionPrefix, randomToken);
      if (chosen) onChange({ ...chosen, values: {} });
    }
  });

  function choose(statementId: number) {
    const chosen = chooseStatement(formClause, statementId, clausePositionPrefix, randomToken);
    onChange(chosen ? { ...chosen, values: {} } : undefined);
  }

  const statementName = (id: number) => (id === hiddenStatementId ? t('form.doNotShowClause') : statements.find((s) => s.id === id)?.name ?? '');
  const configs = statementFieldConfigs(clause, selectedId);
  const subFields = (value?.fieldList ?? []).flatMap((f) => {
    const config = configs.get(f.id);
    const Component = config ? fieldComponents[config.type] : undefined;
    return config && Component && f.positionName ? [{ config, Component, positionName: f.positionName }] : [];
  });

  return (
    <div className="clause-field" data-testid={`clause-${field.id}`}>
      {mode === 'preview' ? (
        <p>{selectedId === null ? '--' : statementName(selectedId)}</p>
      ) : (
        <HTMLSelect
          id={fieldInputId(field.id)}
          aria-label={`${field.name}: ${t('contractFormComplex.clause.statement')}`}
          disabled={mode === 'disabled'}
          value={selectedId ?? ''}
          onChange={(event) => choose(Number(event.currentTarget.value))}
          options={[
            ...(selectedId === null ? [{ value: '', label: t('contractFormComplex.clause.chooseStatement') }] : []),
            ...statements.map((s) => ({ value: s.id, label: statementName(s.id) })),
          ]}
        />
      )}
      {value &&
        subFields.map(({ config, Component, positionName }) => (
          <FormGroup key={positionName} label={config.name} labelFor={fieldInputId(positionName)}>
            <SubField
              Component={Component}
              field={{ ...config, id: positionName }}
              mode={mode}
              value={value.values[positionName]}
              values={value.values}
              onChange={(next) => onChange({ ...value, values: { ...value.values, [positionName]: next } })}
            />
          </FormGroup>
        ))}
      {value && <ClauseText clause={clause} field={field} value={value} statements={formClause} templateApproval={templateApproval} />}
    </div>
  );
}

function SubField({ Component, ...props }: Omit<FieldProps<unknown>, 'error'> & { Component: FieldComponent }) {
  const Typed = Component as unknown as (p: FieldProps<unknown>) => ReactElement;
  return <Typed {...props} error={null} />;
}

/** The statement's text as it lands at the clause's bookmarks; an empty statement is a blank paragraph. */
interface ClauseTextProps {
  clause: ClauseConfig;
  field: FormField;
  value: ClauseValue;
  statements: Clause;
  /** Template-approval pages show the template as it is: no insertion. */
  templateApproval: boolean;
}

function ClauseText({ clause, field, value, statements, templateApproval }: ClauseTextProps) {
  const { t } = useTranslation();
  const statement = clauseStatements(statements).find((s) => s.id === value.statementId);
  const bookmarks = field.bookmarkNames ?? (clause.bookmarkName ? [clause.bookmarkName] : []);
  if (!statement || bookmarks.length === 0) return null;
  const document = insertStatement({ paragraphs: bookmarks.map((bookmark) => ({ parts: [], bookmark })) }, bookmarks, statement, value.fieldList, { templateApproval });
  const names = new Map(value.fieldList.map((f) => [f.positionName, f.name]));
  const partText = (part: DocumentParagraph['parts'][number]) => {
    if (part.kind === 'text') return part.text;
    const typed = part.positionName ? value.values[part.positionName] : undefined;
    return typed === undefined || typed === null || typed === '' ? `[${names.get(part.positionName) ?? part.fieldId}]` : String(typed);
  };
  return (
    <section className="clause-field__text" aria-label={t('contractFormComplex.clause.textPreview')}>
      {document.paragraphs.map((paragraph, at) => (
        <p key={at} data-bookmark={paragraph.bookmark}>
          {paragraph.parts.length === 0 ? t('contractFormComplex.clause.blankParagraph') : paragraph.parts.map(partText).join('')}
        </p>
      ))}
    </section>
  );
}
