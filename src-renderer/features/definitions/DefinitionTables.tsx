import type { ReactNode } from 'react';
import { Button, Checkbox, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { sheetColumnTypes, type FormField, type SheetColumn } from '../../../src-shared/domain/performance';
import { choiceFieldTypes, completionFieldTypes, taskColumnTypes } from '../../../src-shared/rules/performance-definitions';
import { performanceName } from '../fulfilment/performanceNames';
import { ColumnSettings, configFor, NamedTags, newId } from './ColumnSettings';

// The definitions editor's two tables: the sheet's columns and the completion form's fields, one
// row each, in their order, with what each type needs (ColumnSettings: options, one person or
// many, the contract field followed, the value range, the reference nodes).

export type Keyed<T> = T & { key: string };

/** Columns the sheet cannot do without: the task's name and due date. */
const keptColumns: readonly string[] = ['name', 'expirationTime'];

interface RowsProps<T> {
  issues: Record<string, string[]>;
  newRow(item: T): Keyed<T>;
}

function move<T>(rows: readonly T[], from: number, to: number): T[] {
  const next = [...rows];
  const [row] = next.splice(from, 1);
  next.splice(to, 0, row!);
  return next;
}

/** Up, down and remove of row `index`; remove is left out for a row that must stay. */
function RowActions({ index, count, onMove, onRemove, kept }: { index: number; count: number; onMove(to: number): void; onRemove(): void; kept?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="manage__row-actions">
      <Button variant="minimal" size="small" icon="arrow-up" aria-label={t('definitions.moveUp')} title={t('definitions.moveUp')} disabled={index === 0} onClick={() => onMove(index - 1)} />
      <Button
        variant="minimal"
        size="small"
        icon="arrow-down"
        aria-label={t('definitions.moveDown')}
        title={t('definitions.moveDown')}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      />
      <Button
        variant="minimal"
        size="small"
        intent="danger"
        icon="cross"
        aria-label={t('definitions.remove')}
        title={kept ? t('definitions.kept') : t('definitions.remove')}
        disabled={kept}
        onClick={onRemove}
      />
    </div>
  );
}

/** The messages of a row under it, across the table. */
function RowIssues({ messages, span }: { messages: string[] | undefined; span: number }) {
  if (!messages) return null;
  return (
    <tr className="definitions__issue-row">
      <td colSpan={span} className="definitions__issue" data-testid="definition-row-issue">
        {messages.join(' ')}
      </td>
    </tr>
  );
}

function EditorTable({ headers, children, testId }: { headers: string[]; children: ReactNode; testId: string }) {
  return (
    <div className="manage__table definitions__table">
      <HTMLTable compact data-testid={testId}>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </HTMLTable>
    </div>
  );
}

export function ColumnsTable({ columns, onChange, issues, newRow }: RowsProps<SheetColumn> & { columns: Keyed<SheetColumn>[]; onChange(columns: Keyed<SheetColumn>[]): void }) {
  const { t } = useTranslation();
  const headers = [t('definitions.order'), t('definitions.columnName'), t('definitions.type'), t('definitions.required'), t('definitions.state'), t('definitions.settings'), t('manage.actions')];
  const change = (index: number, patch: Partial<SheetColumn>) => onChange(columns.map((column, i) => (i === index ? { ...column, ...patch } : column)));
  const add = () =>
    onChange([...columns, newRow({ id: newId('column'), name: t('definitions.newColumn', { n: columns.length + 1 }), type: 'text', isRequired: false, isState: false })]);
  return (
    <>
      <EditorTable headers={headers} testId="definition-columns">
        {columns.map((column, index) => {
          const name = performanceName(t, column.id, column.name);
          const bound = Object.prototype.hasOwnProperty.call(taskColumnTypes, column.id);
          return [
            <tr key={column.key} data-testid="definition-column" className={issues[`columns.${index}`] ? 'definitions__row--invalid' : undefined}>
              <td className="manage__whole">{index + 1}</td>
              <td>
                <InputGroup size="small" value={name} maxLength={100} aria-label={t('definitions.columnName')} onValueChange={(value) => change(index, { name: value })} />
              </td>
              <td>
                <HTMLSelect
                  value={column.type}
                  aria-label={t('definitions.type')}
                  disabled={bound || column.isState}
                  onChange={(event) => {
                    const type = event.currentTarget.value as SheetColumn['type'];
                    change(index, { type, config: configFor({ ...column, type }) });
                  }}
                  options={sheetColumnTypes.map((value) => ({ value, label: t(`definitions.columnTypes.${value}`) }))}
                />
              </td>
              <td>
                <Checkbox className="definitions__flag" checked={column.isRequired} aria-label={`${t('definitions.required')}: ${name}`} onChange={(event) => change(index, { isRequired: event.currentTarget.checked })} />
              </td>
              <td>
                <Checkbox
                  className="definitions__flag"
                  checked={column.isState}
                  disabled={column.type !== 'select'}
                  aria-label={`${t('definitions.state')}: ${name}`}
                  onChange={(event) => change(index, { isState: event.currentTarget.checked })}
                />
              </td>
              <td className="definitions__settings">
                <ColumnSettings column={column} name={name} onChange={(config) => change(index, { config })} />
              </td>
              <td>
                <RowActions
                  index={index}
                  count={columns.length}
                  kept={keptColumns.includes(column.id)}
                  onMove={(to) => onChange(move(columns, index, to))}
                  onRemove={() => onChange(columns.filter((_, i) => i !== index))}
                />
              </td>
            </tr>,
            <RowIssues key={`${column.key}-issues`} messages={issues[`columns.${index}`]} span={headers.length} />,
          ];
        })}
      </EditorTable>
      {issues.columns && (
        <p className="definitions__issue" data-testid="definition-row-issue">
          {issues.columns.join(' ')}
        </p>
      )}
      <Button size="small" icon="add" text={t('definitions.addColumn')} onClick={add} data-testid="definition-add-column" className="definitions__add" />
    </>
  );
}

export function FieldsTable({ fields, onChange, issues, newRow }: RowsProps<FormField> & { fields: Keyed<FormField>[]; onChange(fields: Keyed<FormField>[]): void }) {
  const { t } = useTranslation();
  const headers = [t('definitions.order'), t('definitions.fieldName'), t('definitions.type'), t('definitions.required'), t('definitions.settings'), t('manage.actions')];
  const change = (index: number, patch: Partial<FormField>) => onChange(fields.map((field, i) => (i === index ? { ...field, ...patch } : field)));
  const add = () => onChange([...fields, newRow({ id: newId('field'), name: t('definitions.newField', { n: fields.length + 1 }), type: 'text', required: false })]);
  const known: readonly string[] = completionFieldTypes;
  return (
    <>
      <EditorTable headers={headers} testId="definition-fields">
        {fields.map((field, index) => {
          const name = performanceName(t, field.id, field.name);
          // A type set elsewhere that this editor does not offer stays as it is.
          const types = known.includes(field.type) ? completionFieldTypes : [...completionFieldTypes, field.type];
          return [
            <tr key={field.key} data-testid="definition-field" className={issues[`fields.${index}`] ? 'definitions__row--invalid' : undefined}>
              <td className="manage__whole">{index + 1}</td>
              <td>
                <InputGroup size="small" value={name} maxLength={100} aria-label={t('definitions.fieldName')} onValueChange={(value) => change(index, { name: value })} />
              </td>
              <td>
                <HTMLSelect
                  value={field.type}
                  aria-label={t('definitions.type')}
                  onChange={(event) => change(index, { type: event.currentTarget.value })}
                  options={types.map((value) => ({ value, label: known.includes(value) ? t(`definitions.fieldTypes.${value as (typeof completionFieldTypes)[number]}`) : value }))}
                />
              </td>
              <td>
                <Checkbox className="definitions__flag" checked={field.required} aria-label={`${t('definitions.required')}: ${name}`} onChange={(event) => change(index, { required: event.currentTarget.checked })} />
              </td>
              <td className="definitions__settings">
                {choiceFieldTypes.includes(field.type) ? (
                  <NamedTags
                    label={`${t('definitions.settings')}: ${name}`}
                    prefix="option"
                    placeholder={t('definitions.optionsPlaceholder')}
                    items={field.options ?? []}
                    onChange={(options) => change(index, { options })}
                  />
                ) : (
                  '--'
                )}
              </td>
              <td>
                <RowActions index={index} count={fields.length} onMove={(to) => onChange(move(fields, index, to))} onRemove={() => onChange(fields.filter((_, i) => i !== index))} />
              </td>
            </tr>,
            <RowIssues key={`${field.key}-issues`} messages={issues[`fields.${index}`]} span={headers.length} />,
          ];
        })}
      </EditorTable>
      <Button size="small" icon="add" text={t('definitions.addField')} onClick={add} data-testid="definition-add-field" className="definitions__add" />
    </>
  );
}
