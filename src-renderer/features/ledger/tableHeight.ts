/**
 * Height in px of a ledger table's scroll area (spec 9, the cooperation-table rule that also applies
 * to ledger tables): 100 for at most 1 row, 200 for 2 to 5, 300 for more.
 */
export function ledgerTableHeight(rowCount: number): 100 | 200 | 300 {
  if (rowCount <= 1) return 100;
  if (rowCount <= 5) return 200;
  return 300;
}
