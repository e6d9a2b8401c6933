import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../src-shared/errors';
import { reasonsEn, reasonsZh } from '../../src-shared/i18n/catalogs/reasons';
import { riskDimensionWord } from '../../src-shared/rules/credit';
import { riskDimensions } from '../../src-server/counterparties/seed';
import { isAuditedWrite } from '../../src-server/audit/rest';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { auditActionText } from '../../src-shared/i18n/audit-words';
import { mutations } from '../../src-shared/sync/mutations';
import { catalogs } from '../../src-shared/i18n/catalogs';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';

// Every key in both languages; English in sentence case with no Chinese, Chinese with no English
// words but the product names and units users read as they are (UI.md "Conventions", issue 31);
// every error code and refusal reason the app raises has its text in both languages.

/** Every string of a catalog by its dotted key. */
function entries(catalog: object, prefix = ''): [string, string][] {
  return Object.entries(catalog).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : entries(value as object, `${prefix}${key}.`),
  );
}

const cjk = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
/** A language's name is written in that language, whichever language the UI is in. */
const chineseAllowed = new Set(['app.languageNames.zh-CN']);
/** Pieces set inside a sentence ("5 changes waiting, the oldest made …", "1 to 9"). */
const midSentence = new Set([
  'sync.oldestQueued',
  'contractForm.rangeTo',
  'contractFormComplex.sheet.days',
  'reasons.or',
  // A value range written out ("> 0 and ≤ 100") and a performance time ("30 days after the contract signing date").
  'sheetCells.and',
  'sheetCells.or',
  'sheetCells.range',
  'sheetCells.defaultNodes.signDate',
  'sheetCells.defaultNodes.effectiveDate',
  'sheetCells.defaultNodes.expiryDate',
]);
/** Words set inside a refusal's reason (a status, a step). */
const midSentencePrefix = 'reasons.words.';

/** Latin words a Chinese text may hold: file formats, units, keys and names read as they are. */
const latinInChinese = new Set(['PDF', 'Word', 'Excel', 'DOCX', 'docx', 'CSV', 'MB', 'KB', 'ID', 'Esc', 'README', 'Contract', 'Desk']);
/** The English language's own name, written in English in either UI. */
const englishAllowed = new Set(['app.languageNames.en']);

/** Every source file of the app's layers, for the codes and reasons they raise. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [readFileSync(path, 'utf8')] : [];
  });
}
const appSources = ['src-server', 'src-main', 'src-shared', 'src-renderer'].flatMap((dir) => sources(join(__dirname, '../..', dir)));
const raised = (pattern: RegExp) => [...new Set(appSources.flatMap((text) => [...text.matchAll(pattern)].map((match) => match[1]!)))].sort();

const english = entries(en);
const chinese = new Map(entries(zhCN));

describe('i18n catalogs', () => {
  it('has the same keys in English and Chinese', () => {
    expect([...chinese.keys()].sort()).toEqual(english.map(([key]) => key).sort());
    expect(Object.keys(catalogs).sort()).toEqual(['en', 'zh-CN']);
  });

  it('keeps the same placeholders in both languages', () => {
    const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const [key, text] of english) expect(placeholders(chinese.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('has no Chinese in English text', () => {
    const withChinese = english.filter(([key, text]) => cjk.test(text) && !chineseAllowed.has(key)).map(([key]) => key);
    expect(withChinese).toEqual([]);
  });

  it('starts English text with a capital, a digit or a symbol (sentence case)', () => {
    const lowercase = english.filter(([key, text]) => /^\p{Ll}/u.test(text) && !midSentence.has(key) && !key.startsWith(midSentencePrefix)).map(([key, text]) => `${key}: ${text}`);
    expect(lowercase).toEqual([]);
  });

  it('has no empty text', () => {
    expect(english.filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
    expect([...chinese].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
  });

  it('has no English words in Chinese text but product names, formats and units', () => {
    const words = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '').match(/[A-Za-z]{2,}/g) ?? [];
    const withEnglish = [...chinese]
      .filter(([key, text]) => !englishAllowed.has(key) && words(text).some((word) => !latinInChinese.has(word)))
      .map(([key, text]) => `${key}: ${text}`);
    expect(withEnglish).toEqual([]);
  });

  it('writes every Chinese text in Chinese (not the English one copied)', () => {
    const untranslated = english.filter(([key, text]) => /[A-Za-z]{3,}/.test(text.replace(/\{\{[^}]*\}\}/g, '')) && chinese.get(key) === text && !englishAllowed.has(key));
    expect(untranslated.map(([key]) => key)).toEqual([]);
  });

  it('has a text for every error code the app raises, in both languages', () => {
    const codes = raised(/AppFailure\('([a-z_]+)'/g);
    expect(codes.length).toBeGreaterThan(10);
    for (const code of [...codes, ...errorCodes]) {
      expect(en.errors[code as keyof typeof en.errors], code).toMatch(/^[^\u3400-\u9fff]+$/);
      expect(zhCN.errors[code as keyof typeof zhCN.errors], code).toMatch(cjk);
    }
  });

  it('has a text for every refusal reason the app raises, in both languages', () => {
    const keys = raised(/reason\('([A-Za-z]+)'/g);
    expect(keys.length).toBeGreaterThan(50);
    const missing = keys.filter((key) => !(key in reasonsEn.text) || !(key in reasonsZh.text));
    expect(missing).toEqual([]);
    for (const key of keys) {
      expect(cjk.test(reasonsEn.text[key as keyof typeof reasonsEn.text]), key).toBe(false);
      expect(reasonsZh.text[key as keyof typeof reasonsZh.text], key).toMatch(cjk);
    }
  });

  it('names every risk dimension the credit platform reports in both languages', () => {
    for (const name of riskDimensions) {
      const word = riskDimensionWord(name);
      expect(word, name).not.toBeNull();
      expect(en.credit.dimensions[word!], name).not.toMatch(cjk);
      expect(zhCN.credit.dimensions[word!]).toBe(name);
    }
  });

  it('names every action the audit trail records (a REST write, a synced change, a file route) in both languages', () => {
    const actions = [...(Object.keys(endpoints) as EndpointName[]).filter(isAuditedWrite), ...Object.keys(mutations), ...raised(/action: '(file[A-Za-z]+)'/g)];
    expect(actions.length).toBeGreaterThan(80);
    const unnamed = actions.filter((action) => auditActionText(en, action) === action || auditActionText(zhCN, action) === action);
    expect(unnamed).toEqual([]);
    for (const action of actions) expect(auditActionText(zhCN, action), action).toMatch(cjk);
  });

  it('answers "I know" with something meaningful', () => {
    expect(en.form.iKnow).toBe('Got it');
    expect(zhCN.form.iKnow).toBe('我知道了');
  });
});
