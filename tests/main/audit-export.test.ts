import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSheet } from '../../src-main/core/audit';
import type { Core } from '../../src-main/core/core';
import { maxAuditExportRows, type AuditEvent, type AuditEventsQuery } from '../../src-shared/api/audit';
import type { Language } from '../../src-shared/i18n/languages';
import { call } from '../support/core';
import { noFaults, openProxiedCore, type ProxiedCore } from '../support/proxied-core';

// The audit trail's Excel export (issue 32, item 4) through the core: the events matching the
// screen's filters, paged from a real server, written and read back as a workbook with the
// screen's columns in the user's language and time format; refused at once offline, and before
// anything is written when more than the cap match; the pages stay those of the first answer
// while events are recorded meanwhile.

let stage: ProxiedCore;

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stage.server.url}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${stage.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

async function exported(core: Core, filters: Record<string, string>, exportId: string, language: Language = 'en'): Promise<{ rows: number; sheet: ExcelJS.Worksheet }> {
  const { rows } = await call(core, 'audit.export', { exportId, filters, language });
  const pieces: Buffer[] = [];
  for (let offset = 0, size = 1; offset < size; ) {
    const piece = await call(core, 'audit.exportRead', { exportId, offset });
    size = piece.size;
    const bytes = Buffer.from(piece.data, 'base64');
    pieces.push(bytes);
    offset += bytes.length;
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(pieces) as unknown as ArrayBuffer);
  return { rows, sheet: workbook.worksheets[0]! };
}

const cells = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1);

beforeAll(async () => {
  stage = await openProxiedCore('audit-export', 32);
  // Three retention changes (entity 'organisation') among other writes: the filter picks them.
  for (const days of [400, 500, 600]) {
    await rest('PUT', 'audit/settings', { retentionDays: days });
    await call(stage.core, 'online.call', { endpoint: 'performanceCreate', body: { name: `Delivery ${days}`, type: 'payment', columns: [{ id: 'name', name: 'content', type: 'text', isRequired: true }] } });
  }
}, 120_000);

afterAll(() => stage?.close());

describe('audit export through the core', () => {
  it('writes the filtered events, newest first, with the headers, times and changes in English', async () => {
    const expected = await rest<{ list: AuditEvent[]; count: number }>('GET', 'audit/events?entity=organisation&pageSize=500');
    expect(expected.count).toBe(3);
    const all = await rest<{ count: number }>('GET', 'audit/events?pageSize=1');
    expect(all.count).toBeGreaterThan(expected.count);

    const { rows, sheet } = await exported(stage.core, { entity: 'organisation' }, '0190a0e0-0000-7000-8000-00000000a001');
    expect(rows).toBe(3);
    expect(sheet.rowCount).toBe(1 + 3);
    expect(cells(sheet.getRow(1))).toEqual(['No.', 'Applied', 'Edited on the device', 'User', 'Device', 'Entity', 'Action', 'Changed fields']);
    const seqs = [2, 3, 4].map((n) => sheet.getRow(n).getCell(1).value);
    expect(seqs).toEqual(expected.list.map((event) => event.seq));
    const newest = sheet.getRow(2);
    expect(newest.getCell(2).value).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    expect(newest.getCell(3).value).toBeNull();
    expect(newest.getCell(4).value).toBe(expected.list[0]!.userName);
    // Written through REST with no device named: one the organisation's list lacks, in words (issue 31).
    expect(expected.list[0]!.device).toMatch(/^session:/);
    expect(newest.getCell(5).value).toBe('Another device');
    expect(newest.getCell(6).value).toBe(`Organisation ${expected.list[0]!.entityId}`);
    expect(newest.getCell(7).value).toBe('Change audit retention');
    expect(newest.getCell(8).value).toBe('Audit retention (days): 500 → 600');
  }, 60_000);

  it('writes the sheet in the language the page asked in, not the core\'s (issue 31): Chinese from an English host', async () => {
    // The core follows its host's locale (en-US: no language chosen in its settings), as the web
    // host does; the page follows the browser, and the export follows the page.
    await call(stage.core, 'settings.update', { language: null });
    const { sheet } = await exported(stage.core, { entity: 'organisation' }, '0190a0e0-0000-7000-8000-00000000a002', 'zh-CN');
    expect(cells(sheet.getRow(1))).toEqual(['序号', '服务器应用时间', '设备编辑时间', '用户', '设备', '对象', '操作', '变更字段']);
    expect(sheet.getRow(2).getCell(2).value).toMatch(/^\d{4}年\d{2}月\d{2}日 \d{2}:\d{2}$/);
    expect(sheet.getRow(2).getCell(5).value).toBe('其他设备');
    expect(sheet.name).toBe('审计日志');
    expect(sheet.getRow(2).getCell(8).value).toBe('审计日志保留天数: 500 → 600');
  }, 60_000);

  it('writes coded values by the labels the screens show, in the language asked', async () => {
    const english = await exported(stage.core, { entity: 'performance' }, '0190a0e0-0000-7000-8000-00000000a004');
    const chinese = await exported(stage.core, { entity: 'performance' }, '0190a0e0-0000-7000-8000-00000000a005', 'zh-CN');
    expect(String(english.sheet.getRow(2).getCell(8).value)).toContain('Type: (empty) → Payment');
    expect(String(chinese.sheet.getRow(2).getCell(8).value)).toContain('类型: （空） → 付款');
    // Written through this core: the exporting device, as the screen says it (issue 31).
    expect([english.sheet.getRow(2).getCell(5).value, chinese.sheet.getRow(2).getCell(5).value]).toEqual(['This device', '本机']);
  }, 60_000);

  it("refuses at once with 'offline' while the server is away", async () => {
    stage.proxy.faults = { ...noFaults, silent: true };
    try {
      await stage.online(false);
      const started = performance.now();
      const refused = await stage.core.invoke('audit.export', { exportId: '0190a0e0-0000-7000-8000-00000000a003', filters: {}, language: 'en' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'offline' } });
      expect(performance.now() - started).toBeLessThan(300);
    } finally {
      stage.proxy.faults = noFaults;
    }
    await stage.online(true);
  }, 60_000);
});

describe('the audit sheet', () => {
  const event = (seq: number): AuditEvent => ({
    seq, userId: 'u', userName: 'Alice', device: 'd', entity: 'contract', entityId: null, action: 'contract.update',
    changes: { name: { before: null, after: 'b' } }, editedAt: null, appliedAt: '2026-11-20T08:00:00.000Z', mutationId: null, requestId: null, prevHash: '0', hash: '1',
  });

  it('refuses more events than the cap before writing anything, naming both numbers', async () => {
    const page = async () => ({ list: [event(1)], count: maxAuditExportRows + 1 });
    await expect(auditSheet(page, {}, [], 'en')).rejects.toMatchObject({ error: { code: 'validation_failed', reason: { key: 'auditExportTooLarge', params: { matching: maxAuditExportRows + 1, max: maxAuditExportRows } } } });
  });

  it('pages up to the first answer\'s newest event, so events recorded meanwhile neither shift nor join it', async () => {
    const asked: AuditEventsQuery[] = [];
    const events = Array.from({ length: 1200 }, (_, i) => event(1200 - i));
    const page = async (query: AuditEventsQuery) => {
      asked.push(query);
      const from = (query.pageNum - 1) * query.pageSize;
      return { list: events.slice(from, from + query.pageSize), count: events.length };
    };
    const sheet = await auditSheet(page, { entity: 'contract' }, [{ id: 'd', name: 'Alice laptop', current: false }], 'en');
    const rows: unknown[][] = [];
    for await (const batch of sheet.batches) rows.push(...batch.map((row) => row.map((cell) => cell.value)));
    expect(rows.map((row) => row[0])).toEqual(events.map((e) => e.seq));
    expect(rows[0]![4]).toBe('Alice laptop');
    expect(rows[0]![7]).toBe('Name: (empty) → b');
    expect(asked.map((query) => [query.pageNum, query.untilSeq, query.entity])).toEqual([[1, undefined, 'contract'], [2, 1200, 'contract'], [3, 1200, 'contract']]);
  });

  it("names the changed fields in the user's words: a form field by its template's label, a row's field without its id", async () => {
    const edited: AuditEvent = {
      ...event(1),
      entityId: 'c1',
      changes: {
        'formValues.f_remark': { before: 'a', after: 'b' },
        'formValues.f_other': { before: null, after: 'x' },
        'performanceTask:0190a0e0-0000-7000-8000-00000000b001/status': { before: 'pending', after: 'finished' },
      },
    };
    const page = async () => ({ list: [edited], count: 1 });
    const changesOf = async (language: 'en' | 'zh-CN') => {
      const sheet = await auditSheet(page, {}, [], language, undefined, (contractId, fieldId) => (contractId === 'c1' && fieldId === 'f_remark' ? '备注说明' : undefined));
      for await (const batch of sheet.batches) return batch[0]![7]!.value;
      return undefined;
    };
    expect(await changesOf('en')).toBe(['备注说明: a → b', 'Form field: (empty) → x', 'Performance task · Status: pending → finished'].join('\n'));
    expect(await changesOf('zh-CN')).toBe(['备注说明: a → b', '表单字段: （空） → x', '履约任务 · 状态: pending → finished'].join('\n'));
  });
});
