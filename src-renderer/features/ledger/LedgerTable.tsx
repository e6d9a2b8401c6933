import { useState, type ReactNode } from 'react';
import { Button, HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Contract } from '../../../src-shared/domain/contract';
import { formatMoney } from '../../../src-shared/domain/money';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import { formatDateTime } from '../../i18n/format';
import { ContractEditDialog } from './ContractEditDialog';
import { ContractScoreDialog } from '../contracts/ContractScoreDialog';
import { ContractStatusCell } from './ContractStatusCell';
import { ArchiveAction } from '../archive/ArchiveDialog';
import { CreditRiskAction } from '../credit/CreditRiskDialog';
import { SelectPageCell, SelectRowCell, type ContractSelection } from '../transfer/TransferDialog';

interface Column {
  key: keyof Catalog['ledger']['columns'];
  /** null renders as '--'. */
  value(contract: Contract, language: string): ReactNode;
  className?: string;
}

const columns: Column[] = [
  { key: 'name', value: (c) => c.name, className: 'ledger-table__text' },
  { key: 'contractNumber', value: (c) => c.contractNumber, className: 'ledger-table__code' },
  { key: 'counterpartName', value: (c) => c.counterpartName, className: 'ledger-table__text' },
  { key: 'amount', value: (c) => c.amount && formatMoney(c.amount), className: 'ledger-table__amount' },
  { key: 'status', value: (c) => <ContractStatusCell status={c.status} />, className: 'ledger-table__status' },
  { key: 'responsibleUserName', value: (c) => c.responsibleUserName },
  { key: 'departmentName', value: (c) => c.departmentName },
  { key: 'updateTime', value: (c, language) => formatDateTime(c.updateTime, language) },
];

/**
 * Spec 2: the row's 'view' opens the contract's standing-book detail in a new tab (the Electron
 * shell opens its own window for it; a link with a target is never refused as a pop-up).
 */
function detailHref(contract: Contract): string {
  return `/standingBook/detail?${new URLSearchParams({ contractId: contract.id, mode: 'contract' })}`;
}

export function LedgerTable({ contracts, stale, selection }: { contracts: Contract[]; stale: boolean; selection?: ContractSelection }) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState<Contract | null>(null);
  const [scoring, setScoring] = useState<string | null>(null);
  return (
    // The main list fills the window's height and scrolls within itself, both ways (UI.md "Tables").
    <div className={stale ? 'ledger-table ledger-table--stale' : 'ledger-table'} data-testid="ledger-table" aria-busy={stale}>
      <HTMLTable compact striped>
        <thead>
          <tr>
            {selection && <SelectPageCell selection={selection} rows={contracts} />}
            {columns.map((column) => (
              <th key={column.key} className={column.className}>
                {t(`ledger.columns.${column.key}`)}
              </th>
            ))}
            <th className="ledger-table__operation">{t('ledger.columns.operation')}</th>
          </tr>
        </thead>
        <tbody>
          {contracts.map((contract) => (
            <tr key={contract.id} data-testid="ledger-row">
              {selection && <SelectRowCell selection={selection} row={contract} name={contract.name} />}
              {columns.map((column) => {
                const value = column.value(contract, i18n.language);
                // A long name is cut to keep the other columns in view; the whole of it is the cell's tooltip.
                return (
                  <td key={column.key} className={column.className} title={typeof value === 'string' ? value : undefined}>
                    {value ?? t('contractStatus.missing')}
                  </td>
                );
              })}
              <td className="ledger-table__operation">
                <a href={detailHref(contract)} target="_blank" rel="noopener noreferrer">
                  {t('messages.view')}
                </a>
                <Button variant="minimal" size="small" icon="edit" data-testid="ledger-edit" aria-label={t('contractEdit.edit')} title={t('contractEdit.edit')} onClick={() => setEditing(contract)} />
                <ArchiveAction contract={contract} minimal />
                {/* Issue 15: score the contract's counterparty from the ledger. */}
                <Button variant="minimal" size="small" icon="star" data-testid="ledger-score" aria-label={t('contractPage.scoreCounterparty')} title={t('contractPage.scoreCounterparty')} onClick={() => setScoring(contract.id)} />
                <CreditRiskAction contractId={contract.id} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {editing && <ContractEditDialog key={editing.id} contract={editing} onClose={() => setEditing(null)} />}
      {scoring && <ContractScoreDialog key={scoring} contractId={scoring} onClose={() => setScoring(null)} />}
    </div>
  );
}
