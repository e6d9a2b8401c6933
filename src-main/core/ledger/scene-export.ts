import { DateTime } from 'luxon';
import { cellText, fieldLabelKey, optionLabelKey, type FieldOption } from '../../../src-shared/domain/ledger-cells';
import type { LedgerField, LedgerRow, LedgerSearch } from '../../../src-shared/domain/ledger';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import type { SceneSearch } from './scene-search';
import { createWorkbookExporter, type ExportProgress, type WorkbookCell, type WorkbookExporter } from '../workbook/workbook-export';

// The Excel export of a scene as shown (issue 14 item 8): its columns, filters and sort, every
// row, written by the app's workbook exporter (workbook/workbook-export.ts).

/** Rows read from the replica and written per step (and per progress event). */
const batchRows = 1000;
/** Column widths in characters: the scene table's 190 px (300 for the two time columns). */
const widthOf = (id: string) => (id === 'receivableTime' || id === 'payableTime' ? 40 : 26);

/** A dotted catalog key's text, if the catalog has it. */
function catalogText(catalog: Catalog, key: string): string | undefined {
  let node: unknown = catalog;
  for (const part of key.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** A cell as Excel holds it: money and numbers as numbers (money with its unit in the format), the rest as the table's text. */
function excelCell(catalog: Catalog, field: LedgerField, value: unknown): WorkbookCell {
  if (value === null || value === undefined || value === '') return { value: null };
  if (field.type === 'money' && typeof value === 'object' && 'amount' in value) {
    const money = value as { amount: number; unit: string };
    return { value: money.amount / 100, numFmt: `#,##0.00${money.unit ? ` "${money.unit.replace(/"/g, '')}"` : ''}` };
  }
  if (typeof value === 'number' && field.type === 'number') return { value };
  const words = {
    option: (f: LedgerField, option: FieldOption) => {
      const key = optionLabelKey(f, option);
      return (key && catalogText(catalog, key)) ?? option.name;
    },
    // A sheet sorts and filters its text: days and times in their sortable form, an instant in this device's zone.
    day: (day: string) => day,
    instant: (iso: string) => {
      const instant = DateTime.fromISO(iso);
      return instant.isValid ? instant.toFormat('yyyy-MM-dd HH:mm') : iso;
    },
  };
  return { value: cellText(words, field, value) };
}

export interface SceneExportOptions {
  dir: string;
  onProgress(progress: ExportProgress): void;
}

export interface SceneExporter {
  /** `catalog`: the requesting page's language's, for the sheet's name, column titles and option names. */
  write(exportId: string, search: Omit<LedgerSearch, 'pageNum' | 'pageSize'>, scenes: SceneSearch, people: ReadonlyMap<string, string>, catalog: Catalog): Promise<{ rows: number; size: number }>;
  read: WorkbookExporter['read'];
  clear: WorkbookExporter['clear'];
}

export function createSceneExporter(options: SceneExportOptions): SceneExporter {
  const workbooks = createWorkbookExporter(options);
  return {
    write: (exportId, search, scenes, people, catalog) =>
      workbooks.write(exportId, () => {
        const { count, batches, titles } = scenes.all({ ...search, pageNum: 1, pageSize: 50 }, people, batchRows);
        return {
          name: catalog.scenes.export.sheet,
          columns: titles.map((field) => ({ header: catalogText(catalog, fieldLabelKey(field)) ?? field.name, width: widthOf(field.id) })),
          total: count,
          batches: (function* () {
            for (const rows of batches) yield (rows as LedgerRow[]).map((row) => titles.map((field) => excelCell(catalog, field, row.data[field.id])));
          })(),
        };
      }),
    read: workbooks.read,
    clear: workbooks.clear,
  };
}
