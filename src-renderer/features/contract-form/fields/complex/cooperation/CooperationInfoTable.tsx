import { Button, HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FormMode } from '../../../../../../src-shared/domain/enums';
import { cooperationAmount, cooperationTable, cooperationViewLink, type CooperativeInfoRow } from '../../../../../../src-shared/form/performance-sheet';
import { formatDateTime } from '../../../../../i18n/format';

// The cooperation-information table of the contract detail (spec 2 "Cooperation information",
// spec 3 "Cooperative info row", spec 9 "Tables"): preview shows the first 2 rows without the
// action column; otherwise every row with a 'view' action to /myContract/detail.

export interface CooperationInfoTableProps {
  rows: readonly CooperativeInfoRow[];
  mode: FormMode;
  /** Further text columns of the rows, by key. */
  extraColumns?: readonly { key: string; name: string }[];
  openRoute(path: string): void;
}

export function CooperationInfoTable({ rows, mode, extraColumns = [], openRoute }: CooperationInfoTableProps) {
  const { t, i18n } = useTranslation();
  const table = cooperationTable(rows, mode);
  return (
    <section className="cooperation-info" aria-label={t('form.cooperationInformation')}>
      <h4>{t('form.cooperationInformation')}</h4>
      <div data-testid="cooperation-info-scroll" style={{ height: table.height, overflow: 'auto' }}>
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('contractFormComplex.cooperation.updateTime')}</th>
              <th>{t('contractFormComplex.cooperation.state')}</th>
              <th>{t('contractFormComplex.cooperation.amount')}</th>
              <th>{t('contractFormComplex.cooperation.operators')}</th>
              {extraColumns.map((column) => (
                <th key={column.key}>{column.name}</th>
              ))}
              {table.actionColumn && <th style={{ width: table.operationColumnWidth }}>{t('contractFormComplex.cooperation.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {table.rows.length === 0 && (
              <tr>
                <td colSpan={4 + extraColumns.length + (table.actionColumn ? 1 : 0)}>{t('form.noData')}</td>
              </tr>
            )}
            {table.rows.map((row) => (
              <tr key={row.contractID}>
                <td>{formatDateTime(row.updateTime, i18n.language)}</td>
                <td>{String(row.state)}</td>
                <td>{cooperationAmount(row.amount) || '--'}</td>
                <td>{row.operatorList.join(t('contractForm.listSeparator')) || '--'}</td>
                {extraColumns.map((column) => (
                  <td key={column.key}>{row[column.key] == null ? '--' : String(row[column.key])}</td>
                ))}
                {table.actionColumn && (
                  <td>
                    <Button variant="minimal" text={t('form.view')} onClick={() => openRoute(cooperationViewLink(row.contractID))} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </section>
  );
}
