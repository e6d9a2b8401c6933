import { afterAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';

// The IP import's counts (issue 31): one row is "1 row" in English (i18next's _one/_other keys);
// Chinese has one form for every count.

initI18n('en');
afterAll(() => i18n.changeLanguage('en'));

const texts = () => [
  i18n.t('manage.ip.import.summary', { count: 1, good: 1, bad: 0 }),
  i18n.t('manage.ip.import.confirm', { count: 1 }),
  i18n.t('manage.ip.import.writing', { count: 1 }),
  i18n.t('manage.ip.import.imported', { count: 1, skipped: 0 }),
];

describe('IP import counts', () => {
  it('says one row and one right in the singular, more in the plural, in English', async () => {
    await i18n.changeLanguage('en');
    expect(texts()).toEqual(['1 row: 1 ready, 0 with errors. Rows with errors are not imported.', 'Import 1 row', 'Writing 1 row…', '1 right imported; rows with errors skipped: 0.']);
    expect(i18n.t('manage.ip.import.summary', { count: 2, good: 1, bad: 1 })).toBe('2 rows: 1 ready, 1 with errors. Rows with errors are not imported.');
    expect(i18n.t('manage.ip.import.confirm', { count: 3 })).toBe('Import 3 rows');
  });

  it('says the count with its one form in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    expect(texts()).toEqual(['共 1 行：1 行可导入，0 行有错误。有错误的行不会导入。', '导入 1 行', '正在写入 1 行…', '已导入 1 项权利；跳过 0 行有错误的数据。']);
    expect(i18n.t('manage.ip.import.confirm', { count: 5 })).toBe('导入 5 行');
  });
});
