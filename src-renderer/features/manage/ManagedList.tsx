import type { ReactNode } from 'react';
import { HTMLTable, NonIdealState, type IconName } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import type { CachedAnswer } from '../../../src-shared/ipc/cached-reads';
import { Pager } from '../ledger/Pager';
import { ReadState } from './ReadState';
import { SearchBox } from './SearchBox';
import type { Paging } from './usePaging';

// The scaffolding every management list shares (issue 15): a header with its title, search box
// and buttons; the server read with its "as of" note offline; the table with a row's actions in
// its last column; and the pages. A screen says only its columns and what its rows can do.

export interface Column<Row> {
  header: string;
  cell(row: Row): ReactNode;
  /** Names and descriptions wrap rather than widen the table; other values (dates, codes, counts, people) keep whole. */
  wrap?: boolean;
}

interface ListHeaderProps {
  /** The screen's title (h2), or a section's (h3) with `subtitle`. */
  title?: string;
  subtitle?: boolean;
  search?: { placeholder: string; onSearch(q: string): void; testId: string };
  /** The header's buttons (create, import). */
  children?: ReactNode;
}

export function ListHeader({ title, subtitle, search, children }: ListHeaderProps) {
  const Heading = subtitle ? 'h3' : 'h2';
  return (
    <header className="manage__header">
      {title && <Heading className={subtitle ? 'manage__subtitle' : 'manage__title'}>{title}</Heading>}
      {search && <SearchBox placeholder={search.placeholder} onSearch={search.onSearch} testId={search.testId} />}
      {children}
    </header>
  );
}

export interface ManagedTableProps<Row> {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey(row: Row): string;
  rowTestId: string;
  /** A row's buttons (edit, delete…), in an actions column; nothing for a row the user may not change. */
  actions?(row: Row): ReactNode;
  /** Extra attributes of a row (e.g. a state a test or a style reads). */
  rowProps?(row: Row): Record<string, string>;
  /** Shown in one row when there are none (a section of a page); a list uses ManagedList's empty state. */
  emptyText?: string;
  className?: string;
}

export function ManagedTable<Row>({ rows, columns, rowKey, rowTestId, actions, rowProps, emptyText, className }: ManagedTableProps<Row>) {
  const { t } = useTranslation();
  const width = columns.length + (actions ? 1 : 0);
  return (
    <div className={className ? `manage__table ${className}` : 'manage__table'}>
      <HTMLTable compact striped>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header}>{column.header}</th>
            ))}
            {actions && <th>{t('manage.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && emptyText && (
            <tr>
              <td colSpan={width}>{emptyText}</td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.wrap ? 'manage__text' : 'manage__whole'}>
                  {column.cell(row)}
                </td>
              ))}
              {actions && (
                <td>
                  <div className="manage__row-actions">{actions(row)}</div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

interface ManagedListProps<T, Row> extends Omit<ManagedTableProps<Row>, 'rows' | 'emptyText'> {
  read: { answer: CachedAnswer<T> | undefined; error: AppError | undefined };
  /** The rows of the answer and how many there are in all (the pager's total). */
  rows(value: T): { list: readonly Row[]; count: number };
  /** With paging, the pager under the table. */
  paging?: Paging;
  empty: { icon: IconName; title: string };
}

/** A server list on screen: as read (or as last read, with its time), empty, or its rows with their pages. */
export function ManagedList<T, Row>({ read, rows, paging, empty, ...table }: ManagedListProps<T, Row>) {
  return (
    <ReadState answer={read.answer} error={read.error}>
      {(value) => {
        const { list, count } = rows(value);
        if (count === 0) return <NonIdealState icon={empty.icon} title={empty.title} />;
        return (
          <>
            <ManagedTable rows={list} {...table} />
            {paging && <Pager pageNum={paging.pageNum} pageSize={paging.pageSize} total={count} onPageChange={paging.setPageNum} onPageSizeChange={paging.setPageSize} />}
          </>
        );
      }}
    </ReadState>
  );
}
