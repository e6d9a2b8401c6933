import { Button, Card, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Clause, ClauseStatement, FieldConfig } from '../../../src-shared/domain/contract-forms';
import { FieldList } from './FieldCard';
import { issueTexts } from './issueText';
import { issuesAt, newField, newStatement, type DraftIssue } from './templateDraft';

// A template's clauses (spec 3 "Clause"): each with its label, whether it may be left out, its
// bookmark, and its statements; a statement has a name, its own fields, and content whose
// paragraphs mix text with those fields.

type Paragraph = ClauseStatement['content'][number];
type Part = Paragraph[number];

function Issues({ issues }: { issues: readonly DraftIssue[] }) {
  const { t } = useTranslation();
  if (issues.length === 0) return null;
  return (
    <ul className="template-field__issues" role="alert">
      {issueTexts(t, issues).map((text) => (
        <li key={text}>{text}</li>
      ))}
    </ul>
  );
}

function ParagraphEditor({
  paragraph,
  index,
  fields,
  readOnly,
  onChange,
  onRemove,
}: {
  paragraph: Paragraph;
  index: number;
  fields: readonly FieldConfig[];
  readOnly: boolean;
  onChange(paragraph: Paragraph): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const setPart = (i: number, part: Part) => onChange(paragraph.map((each, j) => (j === i ? part : each)));
  const firstField = fields[0];
  return (
    <div className="template-paragraph" data-testid="template-paragraph">
      <span className="bp6-text-muted template-paragraph__label">{t('templates.clause.paragraph', { n: index + 1 })}</span>
      {paragraph.map((part, i) => (
        <span key={i} className={part.type === 'text' ? 'template-paragraph__part template-paragraph__part--text' : 'template-paragraph__part'}>
          {part.type === 'text' ? (
            <InputGroup small aria-label={t('templates.clause.textPart')} data-testid="template-text-part" value={part.text} disabled={readOnly} onValueChange={(text) => setPart(i, { type: 'text', text })} />
          ) : (
            <HTMLSelect
              minimal
              aria-label={t('templates.clause.fieldPart')}
              data-testid="template-field-part"
              value={part.fieldId}
              disabled={readOnly}
              onChange={(event) => setPart(i, { type: 'field', fieldId: event.currentTarget.value })}
              options={[
                ...(fields.some((field) => field.id === part.fieldId) ? [] : [{ value: part.fieldId, label: t('templates.clause.chooseField') }]),
                ...fields.map((field) => ({ value: field.id, label: `{${field.name}}` })),
              ]}
            />
          )}
          <Button small variant="minimal" icon="small-cross" aria-label={t('templates.field.remove')} disabled={readOnly} onClick={() => onChange(paragraph.filter((_, j) => j !== i))} />
        </span>
      ))}
      <Button small variant="minimal" icon="add" text={t('templates.clause.addText')} disabled={readOnly} data-testid="template-add-text" onClick={() => onChange([...paragraph, { type: 'text', text: '' }])} />
      <Button
        small
        variant="minimal"
        icon="add"
        text={t('templates.clause.addField')}
        disabled={readOnly || !firstField}
        data-testid="template-add-field-part"
        onClick={() => firstField && onChange([...paragraph, { type: 'field', fieldId: firstField.id }])}
      />
      <Button small variant="minimal" intent="danger" icon="trash" aria-label={t('templates.field.remove')} disabled={readOnly} onClick={onRemove} />
    </div>
  );
}

function StatementEditor({
  statement,
  index,
  path,
  issues,
  readOnly,
  onChange,
  onRemove,
}: {
  statement: ClauseStatement;
  index: number;
  path: string;
  issues: readonly DraftIssue[];
  readOnly: boolean;
  onChange(statement: ClauseStatement): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const setContent = (content: ClauseStatement['content']) => onChange({ ...statement, content });
  // A removed field leaves the content's parts that named it, which the rules then mark.
  const own = issues.filter((issue) => !issue.path.startsWith(`${path}.fieldList.`));
  return (
    <Card compact className="template-statement" data-testid="template-statement">
      <div className="template-field__row">
        <InputGroup
          className="template-field__name"
          aria-label={t('templates.clause.statementName')}
          placeholder={t('templates.clause.statement', { n: index + 1 })}
          data-testid="template-statement-name"
          value={statement.name}
          disabled={readOnly}
          onValueChange={(name) => onChange({ ...statement, name })}
        />
        <Button small variant="minimal" intent="danger" icon="trash" aria-label={t('templates.field.remove')} disabled={readOnly} onClick={onRemove} />
      </div>
      <Issues issues={own} />
      <h6 className="template-section__title">{t('templates.clause.statementFields')}</h6>
      <FieldList
        fields={statement.fieldList}
        issues={issues}
        path={`${path}.fieldList`}
        calculations={false}
        readOnly={readOnly}
        onChange={(fieldList) => onChange({ ...statement, fieldList })}
        onRemove={(i) => onChange({ ...statement, fieldList: statement.fieldList.filter((_, j) => j !== i) })}
      />
      <Button
        small
        variant="minimal"
        icon="add"
        text={t('templates.field.add')}
        disabled={readOnly}
        data-testid="template-add-statement-field"
        onClick={() => onChange({ ...statement, fieldList: [...statement.fieldList, newField('text', '', statement.fieldList)] })}
      />
      <h6 className="template-section__title">{t('templates.clause.content')}</h6>
      {statement.content.map((paragraph, i) => (
        <ParagraphEditor
          key={i}
          paragraph={paragraph}
          index={i}
          fields={statement.fieldList}
          readOnly={readOnly}
          onChange={(next) => setContent(statement.content.map((each, j) => (j === i ? next : each)))}
          onRemove={() => setContent(statement.content.filter((_, j) => j !== i))}
        />
      ))}
      <Button small variant="minimal" icon="add" text={t('templates.clause.addParagraph')} disabled={readOnly} onClick={() => setContent([...statement.content, []])} />
    </Card>
  );
}

export interface ClauseListProps {
  clauses: readonly Clause[];
  issues: readonly DraftIssue[];
  readOnly: boolean;
  onChange(index: number, clause: Clause): void;
  onRemove(labelID: string): void;
}

export function ClauseList({ clauses, issues, readOnly, onChange, onRemove }: ClauseListProps) {
  const { t } = useTranslation();
  if (clauses.length === 0) return <p className="bp6-text-muted">{t('templates.clause.none')}</p>;
  return (
    <div className="template-fields">
      {clauses.map((clause, index) => {
        const path = `clauses.${index}`;
        const own = issuesAt(issues, path).filter((issue) => !issue.path.startsWith(`${path}.statementList.`) || /^clauses\.\d+\.statementList$/.test(issue.path));
        const setStatements = (statementList: ClauseStatement[]) => onChange(index, { ...clause, statementList });
        return (
          <Card key={clause.labelID} compact className="template-clause" data-testid="template-clause">
            <div className="template-field__row">
              <InputGroup
                className="template-field__name"
                aria-label={t('templates.clause.name')}
                placeholder={t('templates.clause.namePlaceholder')}
                data-testid="template-clause-name"
                value={clause.name}
                disabled={readOnly}
                onValueChange={(name) => onChange(index, { ...clause, name })}
              />
              <Button small variant="minimal" intent="danger" icon="trash" aria-label={t('templates.field.remove')} disabled={readOnly} onClick={() => onRemove(clause.labelID)} />
            </div>
            <div className="template-field__row">
              <Switch label={t('templates.clause.nullable')} checked={clause.isNullable} disabled={readOnly} onChange={(event) => onChange(index, { ...clause, isNullable: event.currentTarget.checked })} />
              <FormGroup inline label={t('templates.clause.bookmark')}>
                <InputGroup
                  small
                  value={clause.bookmarkName ?? ''}
                  disabled={readOnly}
                  onValueChange={(text) => onChange(index, { ...clause, bookmarkName: text.trim() === '' ? null : text.trim() })}
                />
              </FormGroup>
            </div>
            <Issues issues={own} />
            <h5 className="template-section__title">{t('templates.clause.statements')}</h5>
            {clause.statementList.map((statement, s) => (
              <StatementEditor
                key={statement.id}
                statement={statement}
                index={s}
                path={`${path}.statementList.${s}`}
                issues={issuesAt(issues, `${path}.statementList.${s}`)}
                readOnly={readOnly}
                onChange={(next) => setStatements(clause.statementList.map((each, j) => (j === s ? next : each)))}
                onRemove={() => setStatements(clause.statementList.filter((_, j) => j !== s))}
              />
            ))}
            <Button
              small
              icon="add"
              text={t('templates.clause.addStatement')}
              disabled={readOnly}
              data-testid="template-add-statement"
              onClick={() => setStatements([...clause.statementList, newStatement(clause.statementList, t('templates.clause.statement', { n: clause.statementList.length + 1 }))])}
            />
          </Card>
        );
      })}
    </div>
  );
}
