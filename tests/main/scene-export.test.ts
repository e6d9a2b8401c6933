import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { performanceTasksLocal } from '../../src-main/core/data/schema';
import { replicaFeatures } from '../../src-main/core/features';
import { createSceneExporter } from '../../src-main/core/ledger/scene-export';
import { zipCaughtUp } from '../../src-main/core/workbook/workbook-export';
import { createSceneSearch } from '../../src-main/core/ledger/scene-search';
import { clientMigrationsDir } from '../../src-main/paths';
import { TaskState } from '../../src-shared/domain/enums';
import { ledgerSearchSchema } from '../../src-shared/domain/ledger';
import { catalogs } from '../../src-shared/i18n/catalogs';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { tempDir } from '../support/temp';

// The Excel export in the core: the scene's columns as titles in the user's language, every row
// in the search's order (in batches, with progress), money as numbers; the file goes once read.

describe('scene export', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(Array.from({ length: 10 }, (_, i) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i) })), '10', '2026-11-21T10:00:00.000Z');
    writer.applyPulledChanges(
      Array.from({ length: 2500 }, (_, i) => ({
        entity: 'performanceTask' as const,
        op: 'upsert' as const,
        row: makeTask(i, { contractId: contractId(i % 10), type: i % 3 === 0 ? 'payable' : 'receivable', expirationTime: `2026-0${1 + (i % 9)}-1${i % 10}`, receivableAmount: i * 100 }),
      })),
      '20',
      '2026-11-21T10:00:00.000Z',
    );
    writer.finishPull();
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('writes every row of the scene in its order, in the language asked, and reads back in pieces', async () => {
    const progress: number[] = [];
    const exporter = createSceneExporter({ dir: join(dir.path, 'exports'), onProgress: (p) => progress.push(p.written) });
    const search = { filterList: [{ id: 'taskType', condition: { in: ['receivable'] } }], sortField: { id: 'expirationTime', key: 1 as const }, titleIDs: ['taskType', 'expirationTime', 'receivableAmount'] };
    const exportId = '0190a0e0-0000-7000-8000-000000000001';
    const { rows, size } = await exporter.write(exportId, search, createSceneSearch(replica), new Map(), catalogs['zh-CN']);
    expect(rows).toBe(1666);
    expect(progress).toEqual([0, 1000, 1666]);
    const pieces: Buffer[] = [];
    for (let offset = 0; offset < size; ) {
      const piece = Buffer.from((await exporter.read(exportId, offset)).data, 'base64');
      pieces.push(piece);
      offset += piece.length;
    }
    await expect(exporter.read(exportId, 0)).rejects.toMatchObject({ error: { code: 'not_found' } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(pieces) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    // The sheet is named in the user's language too (issue 31), not 'Ledger'.
    expect(sheet.name).toBe('合同台账');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['履约名称', '任务类型', '到期时间', '应收金额']);
    expect(sheet.rowCount).toBe(1 + 1666);
    const dues = Array.from({ length: 1666 }, (_, i) => String(sheet.getRow(i + 2).getCell(3).value));
    expect(dues).toEqual([...dues].sort());
    expect(new Set(Array.from({ length: 1666 }, (_, i) => sheet.getRow(i + 2).getCell(2).value))).toEqual(new Set(['应收']));
    expect(typeof sheet.getRow(2).getCell(4).value).toBe('number');
  });

  it('filters and writes the effective state: a pending task past its due date is exported, and reads, as overdue', async () => {
    const exporter = createSceneExporter({ dir: join(dir.path, 'exports'), onProgress: () => undefined });
    const today = '2026-05-15';
    const scenes = createSceneSearch(replica, () => today);
    const stateCells = async (exportId: string, filterList: { id: string; condition: { in: number[] } }[]) => {
      const { rows } = await exporter.write(exportId, { filterList, sortField: { id: 'expirationTime', key: 1 }, titleIDs: ['taskState', 'expirationTime'] }, scenes, new Map(), catalogs['zh-CN']);
      const pieces: Buffer[] = [];
      for (let offset = 0, size = 1; offset < size; ) {
        const read = await exporter.read(exportId, offset);
        const piece = Buffer.from(read.data, 'base64');
        pieces.push(piece);
        [offset, size] = [offset + piece.length, read.size];
      }
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.concat(pieces) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      return Array.from({ length: rows }, (_, i) => String(sheet.getRow(i + 2).getCell(2).value));
    };
    // Every seeded task is stored in progress; those due before `today` are overdue.
    const pastDue = Array.from({ length: 2500 }, (_, i) => `2026-0${1 + (i % 9)}-1${i % 10}`).filter((due) => due < today).length;
    const overdue = await stateCells('0190a0e0-0000-7000-8000-000000000011', [{ id: 'taskState', condition: { in: [TaskState.Overdue] } }]);
    expect(overdue).toHaveLength(pastDue);
    expect(new Set(overdue).size).toBe(1);
    // In due date order: the tasks past their date first, each reading as overdue; then none.
    const every = await stateCells('0190a0e0-0000-7000-8000-000000000012', []);
    expect(new Set(every.slice(0, pastDue))).toEqual(new Set(overdue));
    expect(every.slice(pastDue)).not.toContain(overdue[0]);
    expect(await stateCells('0190a0e0-0000-7000-8000-000000000013', [{ id: 'taskState', condition: { in: [TaskState.InProgress] } }])).toHaveLength(2500 - pastDue);
  });

  it('reads in batches by the sort key exactly the rows and order of the search, across ties, nulls and queued edits', () => {
    // Many tasks share each due date and amount (ties across every batch boundary); every 7th has no due date, every 5th no amount;
    // the amounts in three currencies (an amount sorts within its currency).
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      Array.from({ length: 300 }, (_, i) => ({
        entity: 'performanceTask' as const,
        op: 'upsert' as const,
        row: makeTask(3000 + i, {
          contractId: contractId(i % 10), expirationTime: i % 7 === 0 ? null : `2026-0${1 + (i % 3)}-10`, receivableAmount: i % 5 === 0 ? null : (i % 4) * 100,
          amountUnit: ['USD', 'CNY', 'EUR'][i % 3]!,
        }),
      })),
      '30',
      '2026-11-21T10:00:00.000Z',
    );
    const scenes = createSceneSearch(replica);
    const sorts = [undefined, { id: 'expirationTime', key: 1 }, { id: 'expirationTime', key: -1 }, { id: 'receivableAmount', key: -1 }, { id: 'receivableAmount', key: 1 }, { id: 'contractName', key: 1 }];
    const check = () => {
      for (const sortField of sorts) {
        const search = ledgerSearchSchema.parse({ filterList: [], sortField, titleIDs: ['expirationTime', 'receivableAmount'], pageSize: 50 });
        const { count, batches } = scenes.all(search, new Map(), 23);
        const exported = [...batches].flatMap((rows) => rows.map((row) => row.id));
        // The oracle: the search itself, page after page.
        const searched: string[] = [];
        for (let pageNum = 1; searched.length < count; pageNum += 1) searched.push(...scenes.search({ ...search, pageNum }, new Map()).list.map((row) => row.id));
        expect(exported.length).toBe(count);
        expect(new Set(exported).size).toBe(count);
        expect(exported).toEqual(searched);
      }
    };
    check();
    // Queued edits: a due date cleared, a task deleted, quick tasks tied with base rows and with no due date.
    const queued = (task: ReturnType<typeof makeTask>, deleted = false) => ({ ...task, values: JSON.stringify(task.values), completionValues: null, frontTaskIds: null, deleted });
    const rows = [
      queued(makeTask(3001, { contractId: contractId(1), expirationTime: null })),
      queued(makeTask(3002, { contractId: contractId(2) }), true),
      ...Array.from({ length: 20 }, (_, i) => queued(makeTask(9000 + i, { contractId: contractId(i % 10), expirationTime: i % 2 === 0 ? null : '2026-02-10', receivableAmount: i % 3 === 0 ? null : 100 }))),
    ];
    for (const row of rows) replica.db.insert(performanceTasksLocal).values(row).run();
    check();
  });


  it('waits after each batch until the zip has taken it, so what waits to be deflated stays under one batch at any size', async () => {
    // exceljs hands committed rows to the zip's input at once, ignoring backpressure: written
    // faster than they are deflated, they would pile up there (about 0.7 MB a thousand rows).
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: join(dir.path, 'w.xlsx'), useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Ledger');
    const waiting = () => {
      const input = (sheet as unknown as { stream: { pipes: { _writableState: { length: number } }[] } }).stream.pipes[0];
      return input?._writableState.length ?? 0;
    };
    let mostBefore = 0;
    let mostAfter = 0;
    for (let batch = 0; batch < 20; batch += 1) {
      for (let i = 0; i < 1000; i += 1) sheet.addRow(Array.from({ length: 12 }, (_, c) => `上海办公设备采购合同 ${batch * 1000 + i} cell ${c}`)).commit();
      mostBefore = Math.max(mostBefore, waiting());
      await zipCaughtUp(sheet);
      mostAfter = Math.max(mostAfter, waiting());
    }
    sheet.commit();
    await workbook.commit();
    // A batch is about 0.7 MB: it was waiting, and it is taken before the next one is written.
    expect(mostBefore).toBeGreaterThan(500_000);
    expect(mostAfter).toBeLessThan(100_000);
    const read = new ExcelJS.Workbook();
    await read.xlsx.readFile(join(dir.path, 'w.xlsx'));
    expect(read.worksheets[0]!.rowCount).toBe(20_000);
  });
});
