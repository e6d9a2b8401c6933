import { Button, Checkbox, Dialog, DialogBody, DialogFooter, HTMLSelect, HTMLTable, InputGroup, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { FormMode } from '../../../../../../src-shared/domain/enums';
import { currencyUnits, formatMoney, type Money } from '../../../../../../src-shared/domain/money';
import { hasAmount } from '../../../../../../src-shared/form/field-config';
import type { FormIssue } from '../../../../../../src-shared/form/messages';
import { amountToInput, parseAmountInput } from '../../../../../../src-shared/form/money';
import { sanitizeNumberInput } from '../../../../../../src-shared/form/number-range';
import {
  addRow,
  canDeleteRow,
  columnMinWidth,
  columnPlaceholder,
  deleteRow,
  fullScreenDialogWidth,
  operationColumnWidth,
  tableHeight,
  validateSheet,
  type PerformanceTimeValue,
  type SheetColumn,
  type SheetRow,
} from '../../../../../../src-shared/form/performance-sheet';
import { textMaxLength } from '../../../../../../src-shared/form/validation';
import { DateInput } from '../../../../../i18n/DateInput';
import { formatDay } from '../../../../../i18n/format';
import type { FieldProps } from '../../../types';
import { formMessageText, useRegisterValidator } from '../services';

// The performance sheet table, field type sheetTable (spec 2 "Performance sheet table", spec 3
// "Performance sheet", spec 5 "Performance sheet and task forms"). The field config has no place
// for columns, so the value carries them with the rows.

export interface SheetTableValue {
  columns: SheetColumn[];
  rows: SheetRow[];
}

type Option = { id: string; name: string };

/** The sheet's issues as the engine keys them: `${fieldId}.${row}.${columnId}`. */
export function sheetIssues(fieldId: string, value: unknown): FormIssue[] {
  const sheet = value as SheetTableValue | null | undefined;
  if (!sheet) return [];
  return validateSheet(sheet.columns, sheet.rows).map((issue) => ({ ...issue, field: `${fieldId}.${issue.field}` }));
}

export function SheetTableField({ field, value, mode, onChange }: FieldProps<SheetTableValue>) {
  const { t } = useTranslation();
  // The detail screen keeps the sheet folded away until its field details are asked for.
  const [hidden, setHidden] = useState(mode === 'preview');
  const [fullScreen, setFullScreen] = useState(false);
  const [touched, setTouched] = useState(false);

  useRegisterValidator(field.id, (values) => sheetIssues(field.id, values[field.id]));

  if (!value) return <span>--</span>;
  const change = (rows: SheetRow[]) => {
    setTouched(true);
    onChange({ ...value, rows });
  };
  const issues = touched ? validateSheet(value.columns, value.rows) : [];
  const table = <SheetTable value={value} mode={mode} issues={issues} onRowsChange={change} />;

  return (
    <div className="sheet-table" data-testid={`sheet-${field.id}`}>
      {hidden ? (
        <Button variant="minimal" icon="th" text={t('form.fieldDetails')} onClick={() => setHidden(false)} />
      ) : (
        <>
          <Button variant="minimal" icon="fullscreen" text={t('form.fullScreen')} onClick={() => setFullScreen(true)} />
          {table}
        </>
      )}
      {mode === 'edit' && !hidden && <Button variant="minimal" text={t('form.addRow')} onClick={() => change(addRow(value.columns, value.rows))} />}
      {fullScreen && (
        <Dialog isOpen onClose={() => setFullScreen(false)} title={field.name} style={{ width: fullScreenDialogWidth(value.columns.length) }}>
          <DialogBody>{table}</DialogBody>
          <DialogFooter actions={<Button text={t('form.close')} onClick={() => setFullScreen(false)} />} />
        </Dialog>
      )}
    </div>
  );
}

interface SheetTableProps {
  value: SheetTableValue;
  mode: FormMode;
  issues: FormIssue[];
  onRowsChange(rows: SheetRow[]): void;
}

function SheetTable({ value, mode, issues, onRowsChange }: SheetTableProps) {
  const { t } = useTranslation();
  const { columns, rows } = value;
  const editing = mode === 'edit';
  const setCell = (row: number, column: number, cell: unknown) =>
    onRowsChange(rows.map((r, i) => (i === row ? r.map((c, j) => (j === column ? cell : c)) : r)));

  return (
    <div style={{ maxHeight: tableHeight(rows.length), overflow: 'auto' }}>
      <HTMLTable compact bordered aria-label={t('contractFormComplex.sheet.tableTitle')}>
        <thead>
          <tr>
            {columns.map((column) =>
              column.type === 'id' ? null : (
                <th key={column.id} style={{ minWidth: column.type === 'index' ? undefined : columnMinWidth(column) }}>
                  {column.type === 'index' ? t('contractFormComplex.sheet.index') : column.name}
                  {column.isRequired && <span aria-hidden="true"> *</span>}
                </th>
              ),
            )}
            {editing && <th style={{ width: operationColumnWidth }}>{t('contractFormComplex.sheet.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {columns.map((column, c) => {
                if (column.type === 'id') return null;
                const message = issues.find((issue) => issue.field === `${r}.${column.id}`);
                const locked = !editing || column.type === 'index' || column.isState || column.disabled?.(row);
                return (
                  <td key={column.id}>
                    <Cell column={column} value={row[c]} locked={locked === true} onChange={(cell) => setCell(r, c, cell)} />
                    {message && <span role="alert">{formMessageText(t, message.message)}</span>}
                  </td>
                );
              })}
              {editing && (
                <td>
                  <Button variant="minimal" icon="trash" aria-label={t('form.delete')} disabled={!canDeleteRow(rows, mode)} onClick={() => onRowsChange(deleteRow(rows, r, mode))} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

const names = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v && 'name' in v ? String(v.name) : String(v))) : []);

// Its own function: inline in cellText's union of returns, this key's type overflows the checker.
const daysText = (t: TFunction) => t('contractFormComplex.sheet.days');

function cellText(column: SheetColumn, value: unknown, { t, i18n }: ReturnType<typeof useTranslation>): string {
  if (value === null || value === undefined || value === '') return '--';
  switch (column.type) {
    case 'money':
      return hasAmount(value) ? formatMoney(value) : '--';
    case 'date':
      return formatDay(String(value), i18n.language);
    case 'person':
    case 'checkbox':
      return names(value).join('、') || '--';
    case 'radio':
    case 'externalParty':
    case 'internalParty':
      return typeof value === 'object' && 'name' in value ? String(value.name) : String(value);
    case 'performanceTime': {
      const time = value as PerformanceTimeValue;
      return time.kind === 'date' ? formatDay(time.date, i18n.language) : `${time.node} + ${time.days ?? '--'} ${daysText(t)}`;
    }
    default:
      return String(value);
  }
}

function Cell({ column, value, locked, onChange }: { column: SheetColumn; value: unknown; locked: boolean; onChange(value: unknown): void }) {
  const translation = useTranslation();
  const { t } = translation;
  if (locked) return <span>{column.type === 'index' ? String(value ?? '') : cellText(column, value, translation)}</span>;
  const placeholder = formMessageText(t, columnPlaceholder(column));
  const label = column.name;
  const options: Option[] = column.config?.options ?? [];
  switch (column.type) {
    case 'textarea':
      return <TextArea aria-label={label} placeholder={placeholder} autoResize rows={2} maxLength={textMaxLength} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'date':
      return <DateInput label={label} placeholder={placeholder} value={String(value ?? '')} onChange={onChange} />;
    case 'money':
      return <MoneyCell label={label} placeholder={placeholder} value={hasAmount(value) ? value : null} onChange={onChange} />;
    case 'number':
      return <InputGroup aria-label={label} placeholder={placeholder} value={String(value ?? '')} onValueChange={(text) => onChange(sanitizeNumberInput(text) || null)} />;
    case 'radio':
      return (
        <HTMLSelect
          aria-label={label}
          value={(value as Option | null)?.id ?? ''}
          onChange={(e) => onChange(options.find((o) => o.id === e.currentTarget.value) ?? null)}
          options={[{ value: '', label: placeholder }, ...options.map((o) => ({ value: o.id, label: o.name }))]}
        />
      );
    case 'checkbox': {
      const chosen = Array.isArray(value) ? (value as Option[]) : [];
      return (
        <>
          {options.map((o) => (
            <Checkbox
              key={o.id}
              label={o.name}
              checked={chosen.some((c) => c.id === o.id)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, o] : chosen.filter((c) => c.id !== o.id))}
            />
          ))}
        </>
      );
    }
    case 'performanceTime':
      return <PerformanceTimeCell label={label} value={(value as PerformanceTimeValue | null) ?? null} options={options} onChange={onChange} />;
    case 'person':
      return (
        <InputGroup
          aria-label={label}
          placeholder={placeholder}
          value={names(value).join('、')}
          onValueChange={(text) => {
            const entries = text.split('、').filter((name) => name.trim() !== '').map((name) => ({ name }));
            onChange(column.config?.singleSelect ? entries.slice(0, 1) : entries);
          }}
        />
      );
    case 'externalParty':
    case 'internalParty':
      return (
        <InputGroup
          aria-label={label}
          placeholder={placeholder}
          value={typeof value === 'object' && value && 'name' in value ? String(value.name) : String(value ?? '')}
          onValueChange={(name) => onChange(name === '' ? null : { id: 0, name })}
        />
      );
    default:
      return <InputGroup aria-label={label} placeholder={placeholder} maxLength={textMaxLength} value={String(value ?? '')} onValueChange={(text) => onChange(text)} />;
  }
}

/** Keeps the typed text (so '12.' survives) and reports hundredths. */
function MoneyCell({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: Money | null; onChange(value: Money | null): void }) {
  const [text, setText] = useState(amountToInput(value?.amount));
  const unit = value?.unit ?? currencyUnits[0];
  return (
    <InputGroup
      aria-label={label}
      placeholder={placeholder}
      value={text}
      rightElement={<span className="sheet-table__unit">{unit}</span>}
      onValueChange={(typed) => {
        const parsed = parseAmountInput(typed);
        if (!parsed.ok) return;
        setText(typed);
        onChange(parsed.value === null ? null : { amount: parsed.value, unit });
      }}
    />
  );
}

/** A date, or a condition: a reference node (the column's options) and days after it. */
function PerformanceTimeCell({ label, value, options, onChange }: { label: string; value: PerformanceTimeValue | null; options: Option[]; onChange(value: PerformanceTimeValue): void }) {
  const { t } = useTranslation();
  const kind = value?.kind ?? 'date';
  return (
    <div className="sheet-table__time">
      <HTMLSelect
        aria-label={`${label}: ${t('contractFormComplex.sheet.condition')}`}
        value={kind}
        onChange={(e) => onChange(e.currentTarget.value === 'date' ? { kind: 'date', date: '' } : { kind: 'condition', node: '', days: null })}
        options={[
          { value: 'date', label: t('contractFormComplex.sheet.date') },
          { value: 'condition', label: t('contractFormComplex.sheet.condition') },
        ]}
      />
      {value?.kind === 'condition' ? (
        <>
          <HTMLSelect
            aria-label={`${label}: ${t('contractFormComplex.sheet.referenceNode')}`}
            value={value.node}
            onChange={(e) => onChange({ ...value, node: e.currentTarget.value })}
            options={[{ value: '', label: '--' }, ...options.map((o) => ({ value: o.id, label: o.name }))]}
          />
          <InputGroup
            aria-label={`${label}: ${t('contractFormComplex.sheet.days')}`}
            value={value.days === null ? '' : String(value.days)}
            onValueChange={(text) => onChange({ ...value, days: /^\d{1,4}$/.test(text) ? Number(text) : null })}
          />
        </>
      ) : (
        <DateInput
          label={`${label}: ${t('contractFormComplex.sheet.date')}`}
          value={value?.kind === 'date' ? value.date : ''}
          onChange={(date) => onChange({ kind: 'date', date: date ?? '' })}
        />
      )}
    </div>
  );
}
