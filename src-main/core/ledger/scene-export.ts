import ExcelJS from 'exceljs';
import { DateTime } from 'luxon';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cellText, fieldLabelKey, optionLabelKey, type FieldOption } from '../../../src-shared/domain/ledger-cells';
import type { LedgerField, LedgerRow, LedgerSearch } from '../../../src-shared/domain/ledger';
import { AppFailure, reason } from '../../../src-shared/errors';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import type { SceneSearch } from './scene-search';
import { ephemeralFileKey, openSealedFile, plainSize, sealingStream } from '../vault/sealed-file';

// The Excel export of a scene as shown (issue 14 item 8): its columns, filters and sort, every
// row, written in the core by exceljs's streaming writer — each batch of rows is committed to the
// file and dropped, and the next batch waits until the zip has taken it, so memory stays flat at
// any size — yielding to the event loop between batches so other requests are answered
// meanwhile. The renderer reads the finished file in pieces. The file is sealed on its way to the
// disk with a key only this process holds (vault/sealed-file.ts), so an export a crash left
// behind is unreadable.

/** Rows read from the replica and written per step (and per progress event). */
const batchRows = 1000;
/** The bytes of one piece read back (base64 over the bridge). */
const pieceBytes = 1024 * 1024;
/** Column widths in characters: the scene table's 190 px (300 for the two time columns). */
const widthOf = (id: string) => (id === 'receivableTime' || id === 'payableTime' ? 40 : 26);

/** A dotted catalog key's text, if the catalog has it. */
function catalogText(catalog: Catalog, key: string): string | undefined {
  let node: unknown = catalog;
  for (const part of key.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** A cell as Excel holds it: money and numbers as numbers (money with its unit in the format), the rest as the table's text. */
function excelCell(catalog: Catalog, field: LedgerField, value: unknown): { value: ExcelJS.CellValue; numFmt?: string } {
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

/** The part of a Node writable stream (or readable-stream's older one) that tells of backpressure. */
interface ZipInput {
  writableNeedDrain?: boolean;
  _writableState?: { needDrain?: boolean };
  once(event: 'drain' | 'error' | 'close', listener: (error?: unknown) => void): unknown;
  off(event: 'drain' | 'error' | 'close', listener: (error?: unknown) => void): unknown;
}

/**
 * Resolves once the zip behind `sheet` has taken the rows committed so far (at once when it is
 * not behind, after a turn of the event loop). exceljs's sheet stream ignores backpressure: it
 * hands every row to the zip's input at once, so rows committed faster than they are deflated
 * pile up there (0.7 MB a thousand rows: the whole file, at 50,000 rows).
 */
export function zipCaughtUp(sheet: ExcelJS.Worksheet): Promise<void> {
  const input = (sheet as unknown as { stream: { pipes?: ZipInput[] } }).stream.pipes?.[0];
  if (!(input?.writableNeedDrain ?? input?._writableState?.needDrain)) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown) => {
      input.off('drain', settle);
      input.off('error', settle);
      input.off('close', settle);
      if (error instanceof Error) reject(error);
      else resolve();
    };
    input.once('drain', settle);
    input.once('error', settle);
    input.once('close', settle);
  });
}

export interface SceneExportOptions {
  dir: string;
  catalog: () => Catalog;
  onProgress(progress: { exportId: string; written: number; total: number }): void;
}

export interface SceneExporter {
  write(exportId: string, search: Omit<LedgerSearch, 'pageNum' | 'pageSize'>, scenes: SceneSearch, people: ReadonlyMap<string, string>): Promise<{ rows: number; size: number }>;
  read(exportId: string, offset: number): Promise<{ data: string; size: number }>;
  /** Sign-out and close: unread exports go. */
  clear(): Promise<void>;
}

export function createSceneExporter(options: SceneExportOptions): SceneExporter {
  const pathOf = (exportId: string) => join(options.dir, `${exportId}.xlsx`);
  const running = new Set<string>();
  /** Each written export's key, until it is read through or cleared. */
  const keys = new Map<string, Buffer>();
  return {
    async write(exportId, search, scenes, people) {
      if (running.has(exportId)) throw new AppFailure('conflict', 'this export is already being written', undefined, reason('exportRunning'));
      running.add(exportId);
      const path = pathOf(exportId);
      try {
        await mkdir(options.dir, { recursive: true });
        const catalog = options.catalog();
        const { count, batches, titles } = scenes.all({ ...search, pageNum: 1, pageSize: 50 }, people, batchRows);
        const key = ephemeralFileKey();
        keys.set(exportId, key);
        const plain = new PassThrough();
        const sealed = pipeline(plain, sealingStream(key), createWriteStream(path, { mode: 0o600 }));
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: plain, useStyles: true, useSharedStrings: false });
        const sheet = workbook.addWorksheet('Ledger');
        sheet.columns = titles.map((field) => ({ header: catalogText(catalog, fieldLabelKey(field)) ?? field.name, key: field.id, width: widthOf(field.id) }));
        sheet.getRow(1).font = { bold: true };
        sheet.getRow(1).commit();
        let written = 0;
        options.onProgress({ exportId, written, total: count });
        for (const rows of batches) {
          for (const row of rows as LedgerRow[]) {
            const excelRow = sheet.addRow([]);
            titles.forEach((field, index) => {
              const cell = excelRow.getCell(index + 1);
              const { value, numFmt } = excelCell(catalog, field, row.data[field.id]);
              cell.value = value;
              if (numFmt) cell.numFmt = numFmt;
            });
            excelRow.commit();
          }
          written += rows.length;
          options.onProgress({ exportId, written, total: count });
          // Other requests come in between batches: the export runs beside the user's work.
          await zipCaughtUp(sheet);
        }
        sheet.commit();
        await workbook.commit();
        await sealed;
        return { rows: written, size: plainSize((await stat(path)).size) };
      } catch (cause) {
        keys.delete(exportId);
        await rm(path, { force: true });
        throw cause;
      } finally {
        running.delete(exportId);
      }
    },
    async read(exportId, offset) {
      const path = pathOf(exportId);
      const key = keys.get(exportId);
      const file = key && !running.has(exportId) ? await openSealedFile(path, key).catch(() => null) : null;
      if (!file) throw new AppFailure('not_found', 'the export is gone: export again');
      try {
        const piece = await file.read(offset, pieceBytes);
        if (offset + piece.length >= file.size) {
          keys.delete(exportId);
          await rm(path, { force: true });
        }
        return { data: piece.toString('base64'), size: file.size };
      } finally {
        await file.close();
      }
    },
    async clear() {
      // An export still being written stays (a session start may come while one runs).
      const names = await readdir(options.dir).catch(() => [] as string[]);
      const gone = names.filter((name) => !running.has(name.replace(/\.xlsx$/, '')));
      for (const name of gone) keys.delete(name.replace(/\.xlsx$/, ''));
      await Promise.all(gone.map((name) => rm(join(options.dir, name), { force: true })));
    },
  };
}
