import { describe, expect, it } from 'vitest';
import { catalogs } from '../../src-shared/i18n/catalogs';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';

// Every key in both languages; English in sentence case with no Chinese (UI.md "Conventions").

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

  it('answers "I know" with something meaningful', () => {
    expect(en.form.iKnow).toBe('Got it');
    expect(zhCN.form.iKnow).toBe('我知道了');
  });
});
