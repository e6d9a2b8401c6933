import { Button, Callout, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScheduleConditionType, TaskState } from '../../../src-shared/domain/enums';
import { currencyUnits, toMinorUnits } from '../../../src-shared/domain/money';
import type { PlanSave, SheetColumn } from '../../../src-shared/domain/performance';
import { cellFromContract, sheetCellIssues, type CellProblem } from '../../../src-shared/rules/sheet-cells';
import type { PlanSheet, SheetTask } from '../../../src-shared/ipc/fulfilment';
import { useSavePlanMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { performanceName } from './performanceNames';
import { DateInput } from '../../i18n/DateInput';
import { LeaderCell } from './LeaderCell';
import { ColumnSource } from './ColumnSource';
import { problemText, SheetCell, shownCell, type ContractFormValues } from './SheetCell';

// Edit mode of a plan's performance sheet (spec 2 "Performance sheet table"): every row's cells
// as inputs, '+增加一行' adds a row, a row may be removed but the last one is kept, and the
// whole sheet is saved at once as the offline performance.savePlan mutation (the server keeps
// the rows listed, adds the new ones and drops the unfinished rows left out that the editor showed;
// rows saved elsewhere meanwhile stay). Finished rows are
// read-only (spec 4) and cannot be removed.

const amountColumns = ['receivableAmount', 'payableAmount'] as const;
type AmountColumn = (typeof amountColumns)[number];

interface DraftRow {
  key: string;
  id?: string;
  name: string;
  dueDate: string;
  /** Major units as typed, by amount column. */
  amounts: Partial<Record<AmountColumn, string>>;
  /** The currency of the row's amounts (a task's amounts share one). */
  unit: string;
  values: Record<string, unknown>;
  leaderUserId: string | null;
  locked: boolean;
}

const amountText = (task: SheetTask, column: AmountColumn) => (task[column] ? String(task[column].amount / 100) : '');

function draftOf(task: SheetTask, unit: string): DraftRow {
  return {
    key: task.id,
    id: task.queuedNew ? undefined : task.id,
    name: task.name,
    dueDate: task.dueDate ?? '',
    amounts: Object.fromEntries(amountColumns.map((column) => [column, amountText(task, column)])),
    unit: task.receivableAmount?.unit ?? task.payableAmount?.unit ?? unit,
    values: task.values,
    leaderUserId: task.leaderUserId,
    locked: task.state === TaskState.Success,
  };
}

let newRowCount = 0;
const emptyRow = (unit: string): DraftRow => ({ key: `new-${(newRowCount += 1)}`, name: '', dueDate: '', amounts: {}, unit, values: {}, leaderUserId: null, locked: false });

type PlanRow = PlanSave['rows'][number];

/** Hundredths of a typed amount; one that is not a number is sent as -1, which the rules refuse. */
function amountOf(text: string): number {
  return /^\d+(\.\d{1,2})?$/.test(text) ? toMinorUnits(text) : -1;
}

function cellsOf(row: DraftRow, amounts: readonly AmountColumn[]): PlanRow {
  const money = (text: string | undefined) => (text && text.trim() !== '' ? { amount: amountOf(text.trim()), unit: row.unit } : null);
  return {
    name: row.name.trim(),
    expirationTime: row.dueDate === '' ? null : row.dueDate,
    // A new row without a leader is its author's (the server's rule): it sends none.
    ...(row.leaderUserId !== null && { leaderUserID: row.leaderUserId }),
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
function rowOf(row: DraftRow, original: DraftRow | undefined, amounts: readonly AmountColumn[]): PlanRow {
  const cells = cellsOf(row, amounts);
  if (row.id === undefined || !original) return cells;
  if (row.locked) return { id: row.id };
  const { values, ...rest } = cells;
  const before = cellsOf(original, amounts) as Record<string, unknown>;
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
  contractForm?: ContractFormValues | undefined;
  onDone(): void;
  /**
   * Takes the rows instead of saving them to the plan (a plan not made yet: the add-plan dialog's
   * rows typed by hand), with the fewest rows it may have and whether its save is possible yet.
   */
  collect?: { onRows(rows: PlanRow[]): void; minRows: number; disabled: boolean };
}

export function SheetEditor({ plan, contractId, contractForm, onDone, collect }: SheetEditorProps) {
  const { t } = useTranslation();
  const minRows = collect?.minRows ?? 1;
  // New rows start in the plan's currency (its first amount's), else the first one offered; each row may take another.
  const unit = plan.tasks.map((task) => task.receivableAmount?.unit ?? task.payableAmount?.unit).find((u) => u !== undefined) ?? currencyUnits[0];
  const [originals] = useState(() => new Map(plan.tasks.map((task) => [task.id, draftOf(task, unit)])));
  const [rows, setRows] = useState<DraftRow[]>(() => (originals.size > 0 ? [...originals.values()] : minRows > 0 ? [emptyRow(unit)] : []));
  /** The cells' problems by row key and column id, once the user tried to save. */
  const [problems, setProblems] = useState<ReadonlyMap<string, ReadonlyMap<string, CellProblem>> | null>(null);
  const [savePlan, { isLoading }] = useSavePlanMutation();
  const failed = useActionFailure();
  const amounts = amountColumns.filter((column) => plan.columns.some((c) => c.id === column));
  const custom = plan.columns.filter((column) => !column.isState && !['name', 'expirationTime', 'leader', ...amountColumns].includes(column.id));
  const leaderColumn = plan.columns.find((column) => column.id === 'leader');
  const contractValues = contractForm?.values;
  /** A new row starts with the cells of the columns that follow the contract. */
  const newRow = (): DraftRow => {
    const row = emptyRow(unit);
    return contractValues ? { ...row, values: Object.fromEntries(custom.flatMap((column) => (column.config?.relatedFieldId ? [[column.id, shownCell(column, {}, contractValues)]] : []))) } : row;
  };
  /** Extraction (spec 5): the contract's value of the field, once, in every row that can be edited. */
  const extract = (column: SheetColumn, field: { id: string; name: string }) => {
    const value = cellFromContract(column, field.id, contractValues ?? {});
    setRows((current) => current.map((row) => (row.locked ? row : { ...row, values: { ...row.values, [column.id]: value } })));
    showNotice(t('sheetCells.extracted', { field: field.name }));
  };
  const problemOf = (row: DraftRow, columnId: string) => problems?.get(row.key)?.get(columnId) ?? null;
  const problemNote = (row: DraftRow, columnId: string) => {
    const problem = problemOf(row, columnId);
    const column = plan.columns.find((c) => c.id === columnId);
    return problem && column ? (
      <div className="sheet-cell__problem" role="alert">
        {problemText(t, column, problem)}
      </div>
    ) : null;
  };
  const change = (key: string, patch: Partial<DraftRow>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const columnName = (id: string, fallback: string) => {
    const column = plan.columns.find((c) => c.id === id);
    return column ? performanceName(t, column.id, column.name) : fallback;
  };
  // Required columns are marked with an asterisk (spec 5); the content always is.
  const headerText = (id: string, fallback: string) => {
    const required = id === 'name' || plan.columns.some((c) => c.id === id && c.isRequired);
    return `${required ? '* ' : ''}${columnName(id, fallback)}`;
  };

  function save() {
    const sent = rows.map((row) => rowOf(row, originals.get(row.key), amounts));
    // The shared rules the core and the server enforce too: every cell of a new row, the changed cells of a saved one.
    const issues = sheetCellIssues(plan.columns, sent);
    if (issues.length > 0) {
      const found = new Map<string, Map<string, CellProblem>>();
      for (const issue of issues) {
        const key = rows[issue.row - 1]!.key;
        found.set(key, (found.get(key) ?? new Map<string, CellProblem>()).set(issue.column.id, issue.problem));
      }
      setProblems(found);
      return;
    }
    setProblems(null);
    if (collect) {
      collect.onRows(sent);
      return;
    }
    // Only a plan without a periodic schedule is edited row by row, and its condition is left as
    // it is: the save says so, so that a condition changed elsewhere meanwhile merges with it.
    const conditionType = plan.conditionType === ScheduleConditionType.SingleOrMultiple ? ScheduleConditionType.SingleOrMultiple : ScheduleConditionType.None;
    const request = {
      performanceId: plan.performanceId,
      planId: plan.id,
      plan: { contractID: contractId, conditionType, rows: sent },
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
      {problems && (
        <Callout intent="danger" data-testid="sheet-invalid">
          {t('form.validationFailed')}
        </Callout>
      )}
      {/* Wide sheets scroll within the tab rather than push the page sideways. */}
      <div className="fulfilment-editor__scroll">
        <HTMLTable compact className="contract-page__table fulfilment-sheet">
          <thead>
            <tr>
              <th>{t('fulfilment.index')}</th>
              <th>{headerText('name', t('fulfilment.taskName'))}</th>
              <th>{headerText('expirationTime', t('fulfilment.dueDate'))}</th>
              {amounts.map((column) => (
                <th key={column}>{headerText(column, column)}</th>
              ))}
              {leaderColumn && <th>{headerText('leader', leaderColumn.name)}</th>}
              {custom.map((column) => (
                <th key={column.id} data-testid={`sheet-head-${column.id}`}>
                  {headerText(column.id, column.name)}
                  <ColumnSource column={column} fields={contractForm?.fields} onExtract={(field) => extract(column, field)} />
                </th>
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
                    placeholder={t('form.pleaseFillIn', { name: columnName('name', t('fulfilment.taskName')) })}
                    intent={problemOf(row, 'name') ? 'danger' : 'none'}
                    onChange={(event) => change(row.key, { name: event.currentTarget.value })}
                  />
                  {problemNote(row, 'name')}
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
                  {problemNote(row, 'expirationTime')}
                </td>
                {amounts.map((column) => (
                  <td key={column}>
                    <div className="fulfilment-editor__money">
                      <InputGroup
                        small
                        inputMode="decimal"
                        data-testid={`sheet-edit-${column}`}
                        aria-label={columnName(column, column)}
                        value={row.amounts[column] ?? ''}
                        placeholder={t('form.enterPaymentAmount')}
                        intent={problemOf(row, column) ? 'danger' : 'none'}
                        disabled={row.locked}
                        onChange={(event) => change(row.key, { amounts: { ...row.amounts, [column]: event.currentTarget.value } })}
                      />
                      {/* One currency per row: the task's amounts share it (the server refuses two). */}
                      <HTMLSelect
                        minimal
                        data-testid={`sheet-edit-${column}-unit`}
                        aria-label={t('fulfilment.currency', { column: columnName(column, column) })}
                        value={row.unit}
                        disabled={row.locked}
                        options={[...new Set([...currencyUnits, row.unit])]}
                        onChange={(event) => change(row.key, { unit: event.currentTarget.value })}
                      />
                    </div>
                    {problemNote(row, column)}
                  </td>
                ))}
                {leaderColumn && (
                  <td>
                    <LeaderCell column={leaderColumn} value={row.leaderUserId} disabled={row.locked} onChange={(leaderUserId) => change(row.key, { leaderUserId })} />
                    {problemNote(row, 'leader')}
                  </td>
                )}
                {custom.map((column) => (
                  <td key={column.id}>
                    <SheetCell
                      column={column}
                      value={shownCell(column, row.values, contractValues)}
                      disabled={row.locked || column.config?.relatedFieldId !== undefined}
                      problem={problemOf(row, column.id)}
                      onChange={(value) => change(row.key, { values: { ...row.values, [column.id]: value } })}
                    />
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
      </div>
      <div className="fulfilment-editor__actions">
        <Button small icon="add" data-testid="sheet-add-row" text={t('fulfilment.addRow')} onClick={() => setRows((current) => [...current, newRow()])} />
        <span className="fulfilment-editor__spacer" />
        <Button small data-testid="sheet-cancel" text={t('fulfilment.cancel')} onClick={onDone} />
        <Button small intent="primary" data-testid="sheet-save" loading={isLoading} disabled={collect?.disabled} text={t('fulfilment.save')} onClick={save} />
      </div>
    </div>
  );
}
