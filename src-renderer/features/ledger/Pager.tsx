import { Button, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ledgerPageSizes, type LedgerPageSize } from '../../../src-shared/domain/enums';
import { pageCount, pageItems } from './paging';

interface PagerProps {
  pageNum: number;
  pageSize: LedgerPageSize;
  total: number;
  onPageChange(pageNum: number): void;
  onPageSizeChange(pageSize: LedgerPageSize): void;
}

/** Total, page size (5/10/20/50), previous/next and page numbers. */
export function Pager({ pageNum, pageSize, total, onPageChange, onPageSizeChange }: PagerProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  return (
    <nav className="pager" aria-label={t('ledger.pager.page', { page: pageNum, pages })}>
      <span data-testid="pager-total">{t('ledger.pager.total', { count: total })}</span>
      <HTMLSelect
        data-testid="pager-size"
        value={pageSize}
        options={ledgerPageSizes.map((size) => ({ value: size, label: t('ledger.pager.pageSize', { size }) }))}
        onChange={(event) => {
          const size = ledgerPageSizes.find((s) => String(s) === event.currentTarget.value);
          if (size) onPageSizeChange(size);
        }}
      />
      <Button
        data-testid="pager-prev"
        icon="chevron-left"
        variant="minimal"
        aria-label={t('ledger.pager.previous')}
        disabled={pageNum <= 1}
        onClick={() => onPageChange(pageNum - 1)}
      />
      {pageItems(pageNum, pages).map((item, index) =>
        item === 'gap' ? (
          <span key={`gap-${index}`} className="pager__gap" aria-hidden>
            …
          </span>
        ) : (
          <Button
            key={item}
            text={item}
            variant={item === pageNum ? 'solid' : 'minimal'}
            intent={item === pageNum ? 'primary' : 'none'}
            aria-current={item === pageNum ? 'page' : undefined}
            onClick={() => onPageChange(item)}
          />
        ),
      )}
      <Button
        data-testid="pager-next"
        icon="chevron-right"
        variant="minimal"
        aria-label={t('ledger.pager.next')}
        disabled={pageNum >= pages}
        onClick={() => onPageChange(pageNum + 1)}
      />
      <span data-testid="pager-page">{t('ledger.pager.page', { page: pageNum, pages })}</span>
    </nav>
  );
}
