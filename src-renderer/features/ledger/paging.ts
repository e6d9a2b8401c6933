/** Pages needed for `total` rows; an empty list still shows page 1 of 1. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export type PageItem = number | 'gap';

/**
 * The page buttons to show: the first and last page, the current page and `siblings` either side,
 * with a gap where pages are left out. A gap never hides a single page (that page is shown instead).
 */
export function pageItems(current: number, pages: number, siblings = 1): PageItem[] {
  const shown = new Set<number>([1, pages]);
  for (let page = current - siblings; page <= current + siblings; page++) {
    if (page >= 1 && page <= pages) shown.add(page);
  }
  const sorted = [...shown].sort((a, b) => a - b);
  const items: PageItem[] = [];
  sorted.forEach((page, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && page - previous === 2) items.push(previous + 1);
    else if (previous !== undefined && page - previous > 2) items.push('gap');
    items.push(page);
  });
  return items;
}
