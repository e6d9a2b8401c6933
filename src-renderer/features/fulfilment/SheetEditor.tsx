import { Button, Callout, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScheduleConditionType, TaskState } from '../../../src-shared/domain/enums';
import { toMinorUnits } from '../../../src-shared/domain/money';
import type { PlanSave, SheetColumn } from '../../../src-shared/domain/performance';
import type { PlanSheet, SheetTask } from '../../../src-shared/ipc/fulfilment';
import { useSavePlanMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { performanceName } from './performanceNames';
import { DateInput } from '../../i18n/DateInput';

// Edit mode of a plan's performance sheet (spec 2 "Performance sheet table"): every row's cells
// as inputs, '+增加一行' adds a row, a row may be removed but the last one is kept, and the
// whole sheet is saved at once as the offline performance.savePlan mutation (the server keeps
// the rows listed, adds the new ones and drops the unfinished rows left out that the editor showed;
// rows saved elsewhere meanwhile stay). Finished rows are
// read-only (spec 4) and cannot be removed.

const amountColumns = ['receivableAmount', 'payableAmount'] as const;
type AmountColumn = (typeof amountColumns)[number];
/** Custom columns whose cell is typed as text. */
const textTypes: readonly SheetColumn['type'][] = ['text', 'textarea', 'number'];

interface DraftRow {
  key: string;
  id?: string;
  name: string;
  dueDate: string;
  /** Major units as typed, by amount column. */
  amounts: Partial<Record<AmountColumn, string>>;
  values: Record<string, unknown>;
  locked: boolean;
}

const amountText = (task: SheetTask, column: AmountColumn) => (task[column] ? String(task[column].amount / 100) : '');

function draftOf(task: SheetTask): DraftRow {
  return {
    key: task.id,
    id: task.queuedNew ? undefined : task.id,
    name: task.name,
    dueDate: task.dueDate ?? '',
    amounts: Object.fromEntries(amountColumns.map((column) => [column, amountText(task, column)])),
    values: task.values,
    locked: task.state === TaskState.Success,
  };
}

let newRowCount = 0;
const emptyRow = (): DraftRow => ({ key: `new-${(newRowCount += 1)}`, name: '', dueDate: '', amounts: {}, values: {}, locked: false });

type PlanRow = PlanSave['rows'][number];

function cellsOf(row: DraftRow, amounts: readonly AmountColumn[], unit: string): PlanRow {
  const money = (text: string | undefined) => (text && text.trim() !== '' ? { amount: toMinorUnits(text.trim()), unit } : null);
  return {
    name: row.name.trim(),
    expirationTime: row.dueDate === '' ? null : row.dueDate,
    ...Object.fromEntries(amounts.map((column) => [column, money(row.amounts[column])])),
    values: row.values,
  };
}

const changed = (value: unknown, before: unknown) => JSON.stringify(value) !== JSON.stringify(before);

/**
 * The row as the save sends it: a new row with its cells, a saved one by its id with only the
 * cells the user changed (an untouched row stays as it is on the server; its values only the
 * changed columns, so that another user's edit of another cell merges), a finished one by its id alone.
 */
function rowOf(row: DraftRow, original: DraftRow | undefined, amounts: readonly AmountColumn[], unit: string): PlanRow {
  const cells = cellsOf(row, amounts, unit);
  if (row.id === undefined || !original) return cells;
  if (row.locked) return { id: row.id };
  const { values, ...rest } = cells;
  const before = cellsOf(original, amounts, unit) as Record<string, unknown>;
  const changedValues = Object.fromEntries(Object.entries(values ?? {}).filter(([column, value]) => changed(value, original.values[column])));
  return {
    id: row.id,
    ...Object.fromEntries(Object.entries(rest).filter(([key, value]) => changed(value, before[key]))),
    ...(Object.keys(changedValues).length > 0 && { values: changedValues }),
  };
}

interface SheetEditorProps {
  plan: PlanSheet;
  contractId: string;
  onDone(): void;
  /**
   * Takes the rows instead of saving them to the plan (a plan not made yet: the add-plan dialog's
   * rows typed by hand), with the fewest rows it may have and whether its save is possible yet.
   */
  collect?: { onRows(rows: PlanRow[]): void; minRows: number; disabled: boolean };
}

export function SheetEditor({ plan, contractId, onDone, collect }: SheetEditorProps) {
  const { t } = useTranslation();
  const minRows = collect?.minRows ?? 1;
  const [originals] = useState(() => new Map(plan.tasks.map((task) => [task.id, draftOf(task)])));
  const [rows, setRows] = useState<DraftRow[]>(() => (originals.size > 0 ? [...originals.values()] : minRows > 0 ? [emptyRow()] : []));
  const [invalid, setInvalid] = useState(false);
  const [savePlan, { isLoading }] = useSavePlanMutation();
  const failed = useActionFailure();
  const amounts = amountColumns.filter((column) => plan.columns.some((c) => c.id === column));
  const custom = plan.columns.filter((column) => !column.isState && !['name', 'expirationTime', 'leader', ...amountColumns].includes(column.id));
  const unit = plan.tasks.map((task) => task.receivableAmount?.unit ?? task.payableAmount?.unit).find((u) => u !== undefined) ?? 'CNY';
  const change = (key: string, patch: Partial<DraftRow>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const columnName = (id: string, fallback: string) => {
    const column = plan.columns.find((c) => c.id === id);
    return column ? performanceName(t, column.id, column.name) : fallback;
  };

  function save() {
    if (rows.some((row) => !row.locked && row.name.trim() === '')) {
      setInvalid(true);
      return;
    }
    if (collect) {
      collect.onRows(rows.map((row) => cellsOf(row, amounts, unit)));
      return;
    }
    // Only a plan without a periodic schedule is edited row by row, and its condition is left as
    // it is: the save says so, so that a condition changed elsewhere meanwhile merges with it.
    const conditionType = plan.conditionType === ScheduleConditionType.SingleOrMultiple ? ScheduleConditionType.SingleOrMultiple : ScheduleConditionType.None;
    const request = {
      performanceId: plan.performanceId,
      planId: plan.id,
      plan: { contractID: contractId, conditionType, rows: rows.map((row) => rowOf(row, originals.get(row.key), amounts, unit)) },
      baseCondition: { conditionType, schedule: null },
      // Saved rows the user removed, so that one changed elsewhere meanwhile is a conflict rather than lost.
      removes: [...originals.values()].flatMap((original) => (original.id !== undefined && !rows.some((row) => row.key === original.key) ? [original.id] : [])),
    };
    savePlan(request)
      .unwrap()
      .then(() => {
        showNotice(t('fulfilment.saved'));
        onDone();
      }, failed);
  }

  return (
    <div className="fulfilment-editor" data-testid="sheet-editor">
      {invalid && (
        <Callout intent="danger" data-testid="sheet-invalid">
          {t('fulfilment.rowNameRequired')}
        </Callout>
      )}
      <HTMLTable compact className="contract-page__table fulfilment-sheet">
        <thead>
          <tr>
            <th>{t('fulfilment.index')}</th>
            <th>{`* ${columnName('name', t('fulfilment.taskName'))}`}</th>
            <th>{columnName('expirationTime', t('fulfilment.dueDate'))}</th>
            {amounts.map((column) => (
              <th key={column}>{columnName(column, column)}</th>
            ))}
            {custom.map((column) => (
              <th key={column.id}>{performanceName(t, column.id, column.name)}</th>
            ))}
            <th>{t('fulfilment.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={row.key} data-testid="sheet-edit-row">
              <td>{i + 1}</td>
              <td>
                <InputGroup
                  small
                  data-testid="sheet-edit-name"
                  aria-label={columnName('name', t('fulfilment.taskName'))}
                  value={row.name}
                  disabled={row.locked}
                  intent={invalid && !row.locked && row.name.trim() === '' ? 'danger' : 'none'}
                  onChange={(event) => change(row.key, { name: event.currentTarget.value })}
                />
              </td>
              <td>
                <div data-testid="sheet-edit-date">
                  <DateInput
                    small
                    label={columnName('expirationTime', t('fulfilment.dueDate'))}
                    value={row.dueDate}
                    disabled={row.locked}
                    onChange={(value) => change(row.key, { dueDate: value ?? '' })}
                  />
                </div>
              </td>
              {amounts.map((column) => (
                <td key={column}>
                  <InputGroup
                    small
                    inputMode="decimal"
                    data-testid={`sheet-edit-${column}`}
                    aria-label={columnName(column, column)}
                    value={row.amounts[column] ?? ''}
                    disabled={row.locked}
                    onChange={(event) => change(row.key, { amounts: { ...row.amounts, [column]: event.currentTarget.value } })}
                  />
                </td>
              ))}
              {custom.map((column) => (
                <td key={column.id}>
                  {textTypes.includes(column.type) ? (
                    <InputGroup
                      small
                      aria-label={performanceName(t, column.id, column.name)}
                      value={typeof row.values[column.id] === 'string' || typeof row.values[column.id] === 'number' ? String(row.values[column.id]) : ''}
                      disabled={row.locked}
                      onChange={(event) => change(row.key, { values: { ...row.values, [column.id]: event.currentTarget.value } })}
                    />
                  ) : (
                    t('contractStatus.missing')
                  )}
                </td>
              ))}
              <td>
                <Button
                  small
                  minimal
                  intent="danger"
                  icon="trash"
                  data-testid="sheet-remove-row"
                  aria-label={t('fulfilment.removeRow')}
                  title={rows.length <= minRows ? t('fulfilment.lastRowKept') : t('fulfilment.removeRow')}
                  disabled={row.locked || rows.length <= minRows}
                  onClick={() => setRows((current) => current.filter((other) => other.key !== row.key))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <div className="fulfilment-editor__actions">
        <Button small icon="add" data-testid="sheet-add-row" text={t('fulfilment.addRow')} onClick={() => setRows((current) => [...current, emptyRow()])} />
        <span className="fulfilment-editor__spacer" />
        <Button small data-testid="sheet-cancel" text={t('fulfilment.cancel')} onClick={onDone} />
        <Button small intent="primary" data-testid="sheet-save" loading={isLoading} disabled={collect?.disabled} text={t('fulfilment.save')} onClick={save} />
      </div>
    </div>
  );
}
