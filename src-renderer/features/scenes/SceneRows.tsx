import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Dialog, DialogBody, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { TaskState } from '../../../src-shared/domain/enums';
import type { LedgerRow } from '../../../src-shared/domain/ledger';
import type { SheetTask } from '../../../src-shared/ipc/fulfilment';
import { batchFinishable, contractInChange, isFinishable } from '../../../src-shared/rules/fulfilment';
import { api } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { showFailure } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { FormServicesProvider } from '../contract-form';
import { useBridgeFormServices } from '../contracts/useBridgeFormServices';
import { FinishDialog, type FinishTarget } from '../fulfilment/FinishDialog';
import { useSelection, type ContractSelection, type Selection } from '../transfer/TransferDialog';

// A scene's rows as a workplace (spec 2 "Ledger list screen", spec 4 "Performance tasks"): each
// row's actions — 'view' opens its contract in a new window, finish for a pending or overdue task,
// the finish details for a finished one — and the rows chosen for a batch finish or for the batch
// transfer of their contracts. Finishing goes through the contract tab's finish dialog and the
// core's finish channels, so the same checks and queueing apply.

/** Where a row's 'view' goes: its contract's page, in a new window (spec 2 routes). */
export function contractHref(row: Pick<LedgerRow, 'contractID'>): string {
  return `/standingBook/detail?${new URLSearchParams({ contractId: row.contractID, mode: 'contract' })}`;
}

/** A row's own finish: a pending or overdue task whose contract is not being changed. */
export const rowFinishable = (row: Pick<LedgerRow, 'taskState' | 'status'>) => isFinishable(row.taskState as TaskState) && !contractInChange(row.status);

/** The rows chosen on the scene (kept across its pages), by task id. */
export const useRowSelection = () => useSelection<LedgerRow>();
export type RowSelection = Selection<LedgerRow>;

/** The chosen rows' contracts, for the batch transfer: a contract chosen or cleared takes its rows of `page` with it. */
export function useContractsOf(selection: RowSelection, page: readonly LedgerRow[]): ContractSelection {
  const { selected, toggle: toggleRows, clear } = selection;
  const contracts = useMemo(() => new Map([...selected.values()].map((row) => [row.contractID, { id: row.contractID, name: row.contractName }])), [selected]);
  const toggle = useCallback(
    (chosen: readonly { id: string }[], on: boolean) => {
      const ids = new Set(chosen.map((contract) => contract.id));
      const rows = on ? page : [...selected.values()];
      toggleRows(rows.filter((row) => ids.has(row.contractID)), on);
    },
    [page, selected, toggleRows],
  );
  return useMemo(() => ({ selected: contracts, toggle, clear }), [contracts, toggle, clear]);
}

/** The scene table's selection cells (spec 9: a 55 px column). */
export const selectCellPlace = { className: 'scene-table__select' };

/** What the user asked of rows: finish one, see a finished one's details, or finish several. */
export type RowTarget = { kind: 'one' | 'view'; row: LedgerRow } | { kind: 'batch'; rows: LedgerRow[] };

export function RowActions({ row, onTarget }: { row: LedgerRow; onTarget(target: RowTarget): void }) {
  const { t } = useTranslation();
  return (
    <td className="scene-table__operation">
      <a href={contractHref(row)} target="_blank" rel="noopener noreferrer" data-testid="scene-row-view" title={t('scenes.rows.viewTitle', { name: row.contractName })}>
        {t('scenes.rows.view')}
      </a>
      {rowFinishable(row) && <Button variant="minimal" size="small" intent="primary" data-testid="scene-row-finish" text={t('scenes.rows.finish')} onClick={() => onTarget({ kind: 'one', row })} />}
      {row.taskState === TaskState.Success && <Button variant="minimal" size="small" data-testid="scene-row-details" text={t('scenes.rows.viewFinish')} onClick={() => onTarget({ kind: 'view', row })} />}
    </td>
  );
}

/**
 * The rows a batch finish takes: the chosen pending or overdue ones whose contract is not being
 * changed, all of one performance (the completion form and the finish call are a performance's).
 * A string is why there are none.
 */
export function batchRows(selected: Iterable<LedgerRow>): LedgerRow[] | 'noneFinishable' | 'onePerformance' {
  const rows = [...selected].filter((row) => batchFinishable(row.taskState as TaskState, row.status));
  if (rows.length === 0) return 'noneFinishable';
  const performances = new Set(rows.map((row) => row.performanceId));
  return performances.size === 1 && !performances.has(null) ? rows : 'onePerformance';
}

/** The tasks behind rows as their contracts' performance tabs show them (the replica's, with this device's queued edits). */
function useSheetTasks(rows: readonly LedgerRow[]): { tasks: SheetTask[] | null; failed: boolean } {
  const dispatch = useAppDispatch();
  const fail = useActionFailure();
  const [answer, setAnswer] = useState<{ tasks: SheetTask[] | null; failed: boolean }>({ tasks: null, failed: false });
  useEffect(() => {
    let live = true;
    const contracts = [...new Set(rows.map((row) => row.contractID))];
    Promise.all(contracts.map((id) => dispatch(api.endpoints.contractPerformance.initiate(id, { subscribe: false })).unwrap())).then(
      (answers) => {
        const byId = new Map(answers.flatMap((contract) => [...contract.plans.flatMap((plan) => plan.tasks), ...contract.looseTasks]).map((task) => [task.id, task]));
        if (live) setAnswer({ tasks: rows.flatMap((row) => byId.get(row.id) ?? []), failed: false });
      },
      (error: Parameters<typeof fail>[0]) => {
        if (!live) return;
        fail(error);
        setAnswer({ tasks: null, failed: true });
      },
    );
    return () => {
      live = false;
    };
  }, [rows, dispatch, fail]);
  return answer;
}

/** The finish dialog of rows' tasks, once the tasks and the form's services are read. */
export function RowFinishDialog({ target, onClose }: { target: RowTarget; onClose(): void }) {
  const { t } = useTranslation();
  const rows = useMemo(() => (target.kind === 'batch' ? target.rows : [target.row]), [target]);
  const { tasks, failed } = useSheetTasks(rows);
  const { services, error } = useBridgeFormServices();
  useEffect(() => {
    if (failed || error) onClose();
  }, [failed, error, onClose]);
  useEffect(() => {
    // A row gone from its contract meanwhile (deleted, transferred away) is no longer offered.
    if (tasks && tasks.length === 0) {
      showFailure(t('scenes.rows.noneFinishable'));
      onClose();
    }
  }, [tasks, onClose, t]);
  if (!tasks || tasks.length === 0 || !services) {
    return (
      <Dialog isOpen onClose={onClose} title={t('scenes.rows.loading')} style={{ width: 450 }}>
        <DialogBody>
          <Spinner size={20} />
        </DialogBody>
      </Dialog>
    );
  }
  const finish: FinishTarget = target.kind === 'batch' ? { kind: 'batch', tasks } : { kind: target.kind, task: tasks[0]! };
  return (
    <FormServicesProvider services={services}>
      <FinishDialog target={finish} onClose={onClose} />
    </FormServicesProvider>
  );
}
