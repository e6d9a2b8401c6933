import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { FilterCondition, LedgerField } from '../../src-shared/domain/ledger';
import { ledgerFieldCatalogue } from '../../src-shared/domain/ledger-fields';
import { planFilter } from '../../src-shared/rules/ledger-search';

// A date filter's bounds are days as luxon's 'yyyy-MM-dd' reads them; the planner checks the
// usual form against the calendar itself (it runs on every search) and must decide exactly as luxon.

const fields = new Map(ledgerFieldCatalogue.map(({ kind: _kind, hasUnit: _hasUnit, ...field }) => [field.id, field as LedgerField]));
const accepted = (text: string) => {
  try {
    planFilter({ id: 'signDate', condition: { gte: text } } as FilterCondition, 0, fields);
    return true;
  } catch {
    return false;
  }
};

describe('date filter bounds', () => {
  it('accepts exactly the days luxon reads as yyyy-MM-dd', () => {
    const texts = [
      ...[0, 1, 99, 100, 1582, 1900, 2000, 2023, 2024, 2100, 9999].flatMap((year) =>
        Array.from({ length: 14 * 33 }, (_, k) => `${String(year).padStart(4, '0')}-${String(Math.floor(k / 33)).padStart(2, '0')}-${String(k % 33).padStart(2, '0')}`),
      ),
      '2024-1-01', '2024-01-1', '24-01-01', '02024-01-01', '2024/01/01', ' 2024-01-01', '2024-01-01 ', '2024-01-01T00:00', '٢٠٢٤-٠١-٠١', '２０２４-０１-０１', 'x',
    ];
    const disagreements = texts.filter((text) => accepted(text) !== DateTime.fromFormat(text, 'yyyy-MM-dd').isValid);
    expect(disagreements).toEqual([]);
    expect(texts.filter(accepted).length).toBeGreaterThan(3000);
  });
});
