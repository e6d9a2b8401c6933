import { describe, expect, it } from 'vitest';
import { auditFieldsText, auditFieldText } from '../../src-shared/i18n/audit-words';
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
