import { describe, expect, it } from 'vitest';
import { performanceName, shownFields } from '../../src-renderer/features/fulfilment/performanceNames';
import { fieldLabel } from '../../src-renderer/features/sync/problemFields';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { taskTypeSchema } from '../../src-shared/domain/performance';
import { defaultPerformanceForm, defaultPerformanceNames } from '../../src-shared/rules/performance';

// A performance's columns and completion fields start with English names the server writes as
// data (default_form); while a name is still that default it is shown in the user's language, and
// a name an administrator gave is shown as given.

initI18n('en');
const zh = i18n.getFixedT('zh-CN');
const en = i18n.getFixedT('en');

describe('performance column and field names', () => {
  it('shows every default column of every kind of performance in Chinese, none left in English', () => {
    for (const type of taskTypeSchema.options) {
      const { columns, fields } = defaultPerformanceForm(type);
      for (const named of [...columns, ...fields]) {
        const shown = performanceName(zh, named.id, named.name);
        expect(shown, `${type}.${named.id}`).not.toBe(named.name);
        expect(shown).toMatch(/[\u4e00-\u9fff]/);
      }
    }
    expect(performanceName(zh, 'name', defaultPerformanceNames.name)).toBe('履约内容');
    expect(performanceName(en, 'payableAmount', defaultPerformanceNames.payableAmount)).toBe('Payable amount');
  });

  it('shows a renamed column, or a column of its own, as its administrator named it', () => {
    expect(performanceName(zh, 'name', '交付内容')).toBe('交付内容');
    expect(performanceName(zh, 'site', 'remark')).toBe('remark');
    expect(performanceName(zh, 'constructor', 'task leader')).toBe('task leader');
  });

  it('puts the completion form in the user\'s language, the placeholder of its amount included', () => {
    const fields = shownFields(zh, defaultPerformanceForm('payable').fields);
    expect(fields.map((field) => field.name)).toEqual(['完成日期', '完成金额', '完成凭证', '完成说明']);
    expect(fields.find((field) => field.id === 'finishAmount')?.placeholder).toBe('请输入付款金额');
  });

  it('names a sheet column of a task conflict in the user\'s language', () => {
    const problem = { entity: 'performanceTask' as const, fieldNames: { 'value:remark': defaultPerformanceNames.remark, 'value:site': 'Delivery site' } };
    expect(fieldLabel(zh, problem, 'value:remark')).toBe('备注');
    expect(fieldLabel(zh, problem, 'value:site')).toBe('Delivery site');
  });
});
