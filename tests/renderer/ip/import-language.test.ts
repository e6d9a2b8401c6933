import { describe, expect, it } from 'vitest';
import { checkIpImportRows, ipImportHeader, ipImportRowsFromCsv, ipImportTemplate, type IpImportFileIssue } from '../../../src-shared/rules/ip-import';
import { fileIssueText, rowIssueText } from '../../../src-renderer/features/ip/importText';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';

// The intellectual-property import in the user's language (issue 31, item 1): the template's header
// and codes as the user reads them, a file read in either language or with the codes, and every
// issue of a row or of the file in the user's language, never the schema's English.

initI18n('en');

const example = { name: '华辰', registrationNumber: '第45678901号', owner: '华辰科技有限公司' };
const context = { organisationIdByName: new Map([['华辰科技有限公司', '01900000-0000-7000-8000-000000000001']]), registered: new Set<string>() };
const latinWord = /[A-Za-z]{2,}/;
const cjk = /[\u3400-\u9fff]/;

describe('the import template in the user language', () => {
  it('heads the columns and writes the type and status in Chinese for zh-CN and in English for en', () => {
    const zh = ipImportTemplate('trademark', 'zh-CN', example);
    expect(zh.csv).toBe('\uFEFF名称,类型,登记号,权利人,状态,申请日期,登记日期,到期日期,备注\r\n华辰,商标,第45678901号,华辰科技有限公司,已登记,2023-03-01,2024-01-15,2043-03-01,\r\n');
    expect(zh.fileName).toBe('知识产权导入模板（商标）.csv');
    const en = ipImportTemplate('software_copyright', 'en', example);
    expect(en.csv.split('\r\n')[0]).toBe('\uFEFFName,Type,Registration number,Owner,Status,Application date,Registration date,Expiration date,Remark');
    expect(en.csv.split('\r\n')[1]).toContain(',Software copyright,');
    expect(en.csv.split('\r\n')[1]).toContain(',Registered,');
    expect(ipImportHeader('zh-CN').some((label) => latinWord.test(label))).toBe(false);
  });

  it('reads a file in Chinese, in English or with the codes as the same rows', () => {
    const expected = [{ name: '华辰', type: 'trademark', registrationNumber: 'N-1', ownerOrganizationName: '华辰科技有限公司', status: 'filed', applicationDate: '2024-01-10' }];
    const files = [
      '名称,类型,登记号,权利人,状态,申请日期\r\n华辰,商标,N-1,华辰科技有限公司,已申请,2024-01-10',
      'Name,Type,Registration number,Owner,Status,Application date\r\n华辰,Trademark,N-1,华辰科技有限公司,filed,2024-01-10',
      ' name ,TYPE,registrationNumber,ownerOrganizationName,status,applicationDate\r\n华辰,trademark,N-1,华辰科技有限公司,Filed,2024-01-10',
    ];
    for (const file of files) expect(ipImportRowsFromCsv(file)).toEqual({ rows: expected });
    // Both languages' labels in one header are read too (a template partly retyped).
    expect(ipImportRowsFromCsv('名称,Type,登记号,Owner\r\n华辰,实用新型,N-2,华辰科技有限公司')).toEqual({
      rows: [{ name: '华辰', type: 'utility_model', registrationNumber: 'N-2', ownerOrganizationName: '华辰科技有限公司' }],
    });
  });
});

describe('the import issues in the user language', () => {
  const file = [
    '名称,类型,登记号,权利人,状态,申请日期,登记日期,到期日期,备注',
    `${'长'.repeat(201)},商标,N-1,华辰科技有限公司,已申请,,,,`,
    '华辰二,软件,N-2,华辰科技有限公司,已申请,,,,',
    '华辰三,商标,N-3,华辰科技有限公司,审查中,,,,',
    '华辰四,商标,N-4,华辰科技有限公司,已申请,2024-13-01,,,',
    '华辰五,商标,N-5,,已申请,,,,',
    '华辰六,商标,N-6,华辰科技有限公司,已登记,2024-01-01,,2023-01-01,',
    '华辰七,商标,N-7,某某公司,已申请,,,,',
    '华辰八,商标,N-7,华辰科技有限公司,已申请,,,,',
  ].join('\r\n');

  function issueTexts(language: 'en' | 'zh-CN'): string[] {
    const read = ipImportRowsFromCsv(file);
    if (!('rows' in read)) throw new Error('the file was not read');
    const t = i18n.getFixedT(language);
    return checkIpImportRows(read.rows, context).flatMap((row) => row.issues.map((issue) => rowIssueText(t, language, issue)));
  }

  it('words every issue of every row in Chinese, with the column as the template heads it', () => {
    const texts = issueTexts('zh-CN');
    expect(texts).toEqual([
      '名称：最多 200 个字符',
      '类型：请从列表中选择类型',
      '状态：请从列表中选择状态',
      '申请日期：请按 2024-01-31 的格式填写日期',
      '权利人：请输入权利人组织',
      '到期日期：到期日期不能早于申请日期',
      '登记日期：请输入登记日期',
      '权利人：组织“某某公司”不存在',
      '登记号：与第 7 行重复',
    ]);
    expect(texts.filter((text) => latinWord.test(text))).toEqual([]);
  });

  it('words them in English for en, without the schema’s own English', () => {
    const texts = issueTexts('en');
    expect(texts).toContain('Type: Please choose a type of the list');
    expect(texts).toContain('Name: At most 200 characters');
    expect(texts).toContain('Application date: Please enter a date such as 2024-01-31');
    expect(texts.filter((text) => /Invalid|expected|yyyy/.test(text) || cjk.test(text.replace(/“.*”/, '')))).toEqual([]);
  });

  it('shows a message it does not know as an invalid value of its column, not in the wire’s English', () => {
    const issue = { path: 'row 1: remark', message: 'Invalid input: something new' };
    expect(rowIssueText(i18n.getFixedT('zh-CN'), 'zh-CN', issue)).toBe('备注：该值无效');
    expect(rowIssueText(i18n.getFixedT('en'), 'en', issue)).toBe('Remark: This value is not valid');
  });

  it('words the file’s issues with the template’s columns in the user language', () => {
    const read = ipImportRowsFromCsv('名称,颜色\r\n华辰,红');
    expect('issue' in read).toBe(true);
    const issue = (read as { issue: IpImportFileIssue }).issue;
    expect(fileIssueText(i18n.getFixedT('zh-CN'), 'zh-CN', issue)).toBe('表头须为模板的列：名称、类型、登记号、权利人、状态、申请日期、登记日期、到期日期、备注。无法识别：颜色。');
    expect(fileIssueText(i18n.getFixedT('en'), 'en', issue)).toMatch(/^The header row must name the template’s columns: Name, Type, .* Not known: 颜色\.$/);
    const empty = (ipImportRowsFromCsv('名称,类型') as { issue: IpImportFileIssue }).issue;
    expect(fileIssueText(i18n.getFixedT('zh-CN'), 'zh-CN', empty)).toBe('文件中没有可导入的行。');
  });
});
