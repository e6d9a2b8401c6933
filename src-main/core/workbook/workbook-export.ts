import ExcelJS from 'exceljs';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppFailure, reason } from '../../../src-shared/errors';
import { ephemeralFileKey, openSealedFile, plainSize, sealingStream } from '../vault/sealed-file';

// The app's Excel exports (a scene as shown, issue 14 item 8; the audit trail, issue 32), written in
// the core by exceljs's streaming writer — each batch of rows is committed to the file and dropped,
// and the next batch waits until the zip has taken it, so memory stays flat at any size — yielding
// to the event loop between batches so other requests are answered meanwhile. The renderer reads
// the finished file in pieces. The file is sealed on its way to the disk with a key only this
// process holds (vault/sealed-file.ts), so an export a crash left behind is unreadable.

/** The bytes of one piece read back (base64 over the bridge). */
const pieceBytes = 1024 * 1024;

/** One cell as Excel holds it, with its number format if any. */
export interface WorkbookCell {
  value: ExcelJS.CellValue;
  numFmt?: string;
}

/** What an export writes: one sheet, its titled columns and its rows batch by batch. */
export interface WorkbookSheet {
  name: string;
  /** Widths in characters. */
  columns: readonly { header: string; width: number }[];
  /** Rows to come, for the progress (0: not known). */
  total: number;
  batches: Iterable<readonly WorkbookCell[][]> | AsyncIterable<readonly WorkbookCell[][]>;
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

export interface ExportProgress {
  exportId: string;
  written: number;
  total: number;
}

export interface WorkbookExportOptions {
  /** A folder of the exporter's own (emptied by `clear`). */
  dir: string;
  onProgress(progress: ExportProgress): void;
}

export interface WorkbookExporter {
  /** `sheet` is asked for once the export is known not to run already. */
  write(exportId: string, sheet: () => WorkbookSheet | Promise<WorkbookSheet>): Promise<{ rows: number; size: number }>;
  read(exportId: string, offset: number): Promise<{ data: string; size: number }>;
  /** Sign-out and close: unread exports go. */
  clear(): Promise<void>;
}

export function createWorkbookExporter(options: WorkbookExportOptions): WorkbookExporter {
  const pathOf = (exportId: string) => join(options.dir, `${exportId}.xlsx`);
  const running = new Set<string>();
  /** Each written export's key, until it is read through or cleared. */
  const keys = new Map<string, Buffer>();
  return {
    async write(exportId, sheetOf) {
      if (running.has(exportId)) throw new AppFailure('conflict', 'this export is already being written', undefined, reason('exportRunning'));
      running.add(exportId);
      const path = pathOf(exportId);
      try {
        const { name, columns, total, batches } = await sheetOf();
        await mkdir(options.dir, { recursive: true });
        const key = ephemeralFileKey();
        keys.set(exportId, key);
        const plain = new PassThrough();
        const sealed = pipeline(plain, sealingStream(key), createWriteStream(path, { mode: 0o600 }));
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: plain, useStyles: true, useSharedStrings: false });
        const sheet = workbook.addWorksheet(name);
        sheet.columns = columns.map(({ header, width }, index) => ({ header, key: String(index), width }));
        sheet.getRow(1).font = { bold: true };
        sheet.getRow(1).commit();
        let written = 0;
        options.onProgress({ exportId, written, total });
        for await (const rows of batches) {
          for (const cells of rows) {
            const excelRow = sheet.addRow([]);
            cells.forEach(({ value, numFmt }, index) => {
              const cell = excelRow.getCell(index + 1);
              cell.value = value;
              if (numFmt) cell.numFmt = numFmt;
            });
            excelRow.commit();
          }
          written += rows.length;
          options.onProgress({ exportId, written, total });
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
