import { describe, expect, it } from 'vitest';
import { auditChangeText, auditFieldsText, auditFieldText } from '../../src-shared/i18n/audit-words';
import { catalogs } from '../../src-shared/i18n/catalogs';

// The audit trail's "changed fields" (issue 31): the keys the server records (src-server/audit,
// src-server/sync/push.ts) in the user's words in both languages, never a raw key or a row's id.

const { en, 'zh-CN': zh } = catalogs;
const taskStatus = 'performanceTask:0190a0e0-0000-7000-8000-00000000b001/status';

describe('audit field words', () => {
  it('names known columns in both languages', () => {
    expect(['name', 'status', 'amount'].map((field) => auditFieldText(en, field))).toEqual(['Name', 'Status', 'Amount']);
    expect(['name', 'status', 'amount'].map((field) => auditFieldText(zh, field))).toEqual(['名称', '状态', '金额']);
  });

  it("names a form field by its template's label, else generically", () => {
    const label = (id: string) => (id === 'remark_1' ? 'Remark on delivery' : undefined);
    expect(auditFieldText(en, 'formValues.remark_1', label)).toBe('Remark on delivery');
    expect(auditFieldText(en, 'formValues.other', label)).toBe('Form field');
    expect(auditFieldText(zh, 'formValues.remark_1')).toBe('表单字段');
  });

  it("names a row's field by the row's entity and the field, without the row's id", () => {
    expect(auditFieldText(en, taskStatus)).toBe('Performance task · Status');
    expect(auditFieldText(zh, taskStatus)).toBe('履约任务 · 状态');
    expect(auditFieldText(zh, 'performanceTask:0190a0e0-0000-7000-8000-00000000b001/values.col_4bea673d')).toBe('履约任务 · 取值');
  });

  it('names a known key inside another object column after the column', () => {
    expect(auditFieldText(en, 'settings.name')).toBe('Settings · Name');
  });

  it('lists each name once', () => {
    expect(auditFieldsText(en, ['formValues.a', 'formValues.b', 'status'])).toEqual(['Form field', 'Status']);
  });

  it('has every field word in both catalogs, the Chinese ones without Latin letters', () => {
    expect(Object.keys(zh.audit.fields).sort()).toEqual(Object.keys(en.audit.fields).sort());
    for (const [key, words] of Object.entries(zh.audit.fields)) expect(words, key).not.toMatch(/[A-Za-z]/);
  });
});

// The recorded values (issue 31): a code by the label the screens show for it, the column's
// entity deciding which, in both languages; values that are not codes as they were.
describe('audit value words', () => {
  const change = (before: unknown, after: unknown) => ({ before, after });

  it('names a contract\'s and a template\'s status as the ledger does', () => {
    expect(auditChangeText(en, 'contract', 'status', change(1, 4))).toBe('Status: Drafting → Approved');
    expect(auditChangeText(zh, 'contract', 'status', change(2, 3))).toBe(`状态: ${zh.contractStatus[2]} → ${zh.contractStatus[3]}`);
    expect(auditChangeText(en, 'template', 'status', change(null, 1))).toBe('Status: (empty) → Drafting');
  });

  it('names a task\'s state and type, also in an edit of several rows', () => {
    expect(auditChangeText(en, 'performanceTask', 'state', change(2, 4))).toBe('State: In progress → Completed');
    expect(auditChangeText(zh, 'performancePlan', `${taskStatus.replace('/status', '/state')}`, change(1, 4))).toBe(`履约任务 · 状态: ${zh.taskState.notStarted} → ${zh.taskState.completed}`);
    expect(auditChangeText(zh, 'performanceTask', 'type', change(null, 'receivable'))).toBe('类型: （空） → 应收');
  });

  it('names the register\'s, the parties\' and the legal lists\' codes, currencies and yes or no', () => {
    expect(auditChangeText(en, 'intellectualProperty', 'status', change('filed', 'registered'))).toBe('Status: Filed → Registered');
    expect(auditChangeText(zh, 'intellectualProperty', 'type', change(null, 'patent'))).toBe(`类型: （空） → ${zh.manage.ip.types.patent}`);
    expect(auditChangeText(en, 'counterparty', 'rating', change(0, 40))).toBe('Credit rating: None → Blacklisted');
    expect(auditChangeText(en, 'lawFirm', 'state', change(1, 2))).toBe('State: Enabled → Disabled');
    expect(auditChangeText(zh, 'contract', 'amountUnit', change('CNY', 'USD'))).toBe('币种: 人民币 → 美元');
    expect(auditChangeText(zh, 'contract', 'isConnectedTransaction', change(false, true))).toBe('关联交易: 否 → 是');
  });

  it('keeps what is not a code as it was: a status of an entity without one, text, numbers', () => {
    expect(auditChangeText(en, 'scene', 'status', change(1, 2))).toBe('Status: 1 → 2');
    expect(auditChangeText(en, 'contract', 'name', change('A', 'B'))).toBe('Name: A → B');
    expect(auditChangeText(en, 'contract', 'status', change(9, 4))).toBe('Status: 9 → Approved');
  });
});
