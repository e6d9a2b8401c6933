import { HTMLTable, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { LedgerField, LedgerRow } from '../../../src-shared/domain/ledger';
import { catalogueField } from '../../../src-shared/domain/ledger-fields';
import { SelectPageCell, SelectRowCell } from '../transfer/TransferDialog';
import { RowActions, selectCellPlace, type RowSelection, type RowTarget } from './SceneRows';
import { cellText } from './sceneValues';
import { fieldLabel } from './sceneText';

// The scene's table: the selection column (55 px), its columns ('name' first) at the spec's widths
// (190, 300 for the receivable and payable times) and the row's actions, kept in view at the right
// while the columns scroll sideways. Sortable by a system column: ascending, descending, then
// none; money sorts within each currency (src-shared/rules/ledger-search.ts), as its header says.

export interface SceneSort {
  id: string;
  key: 1 | -1;
}

const widthOf = (id: string) => (id === 'receivableTime' || id === 'payableTime' ? 300 : 190);

interface SceneTableProps {
  columns: readonly LedgerField[];
  rows: readonly LedgerRow[];
  sort: SceneSort | null;
  stale: boolean;
  onSort(sort: SceneSort | null): void;
  selection: RowSelection;
  onTarget(target: RowTarget): void;
}

function nextSort(current: SceneSort | null, id: string): SceneSort | null {
  if (current?.id !== id) return { id, key: 1 };
  return current.key === 1 ? { id, key: -1 } : null;
}

export function SceneTable({ columns, rows, sort, stale, onSort, selection, onTarget }: SceneTableProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className="scene-table" data-testid="scene-table" aria-busy={stale}>
      <HTMLTable compact striped interactive>
        <thead>
          <tr>
            <SelectPageCell selection={selection} rows={rows} {...selectCellPlace} testId="scene-select-page" />
            {columns.map((field) => {
              const sortable = catalogueField(field.id) !== undefined;
              const direction = sort?.id === field.id ? sort.key : null;
              return (
                <th
                  key={field.id}
                  style={{ minWidth: widthOf(field.id) }}
                  data-testid={`scene-column-${field.id}`}
                  aria-sort={direction === 1 ? 'ascending' : direction === -1 ? 'descending' : 'none'}
                >
                  {sortable ? (
                    <button
                      type="button"
                      className="scene-table__sort"
                      title={`${direction === 1 ? t('scenes.sortDescending') : t('scenes.sortAscending')}${field.type === 'money' ? ` · ${t('scenes.sortWithinCurrency')}` : ''}`}
                      onClick={() => onSort(nextSort(sort, field.id))}
                    >
                      {fieldLabel(t, field)}
                      <Icon icon={direction === 1 ? 'sort-asc' : direction === -1 ? 'sort-desc' : 'double-caret-vertical'} size={12} />
                    </button>
                  ) : (
                    fieldLabel(t, field)
                  )}
                </th>
              );
            })}
            <th className="scene-table__operation">{t('scenes.rows.operation')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="scene-row" data-task-id={row.id} data-state={row.taskState} data-performance-id={row.performanceId ?? undefined}>
              <SelectRowCell selection={selection} row={row} name={String(row.data.name ?? row.contractName)} {...selectCellPlace} testId="scene-select-row" />
              {columns.map((field) => (
                <td key={field.id} style={{ minWidth: widthOf(field.id) }} className={field.type === 'date' ? 'scene-table__whole' : undefined}>
                  {cellText(t, i18n.language, field, row.data[field.id])}
                </td>
              ))}
              <RowActions row={row} onTarget={onTarget} />
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
