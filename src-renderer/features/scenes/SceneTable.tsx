import { HTMLTable, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { LedgerField, LedgerRow } from '../../../src-shared/domain/ledger';
import { catalogueField } from '../../../src-shared/domain/ledger-fields';
import { cellText } from './sceneValues';
import { fieldLabel } from './sceneText';

// The scene's table: its columns ('name' first) at the spec's widths (190, 300 for the
// receivable and payable times), sortable by a system column: ascending, descending, then none.

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
}

function nextSort(current: SceneSort | null, id: string): SceneSort | null {
  if (current?.id !== id) return { id, key: 1 };
  return current.key === 1 ? { id, key: -1 } : null;
}

export function SceneTable({ columns, rows, sort, stale, onSort }: SceneTableProps) {
  const { t } = useTranslation();
  return (
    <div className="scene-table" data-testid="scene-table" aria-busy={stale}>
      <HTMLTable compact striped interactive>
        <thead>
          <tr>
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
                      title={direction === 1 ? t('scenes.sortDescending') : t('scenes.sortAscending')}
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
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="scene-row">
              {columns.map((field) => (
                <td key={field.id} style={{ minWidth: widthOf(field.id) }}>
                  {cellText(t, field, row.data[field.id])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
