import { describe, expect, it } from 'vitest';
import { formMessage, formMessages } from '../../../src-shared/form/messages';
import { en } from '../../../src-shared/i18n/en';
import { zhCN } from '../../../src-shared/i18n/zh-CN';

// The spec's form messages (points 2, 5 and 8), verbatim.
const specStrings = [
  'validation failed',
  'related contracts must contain at least two items',
  'please enter the number',
  'the current file format is not supported',
  'uploaded file exceeds the maximum limit, please upload again!',
  'wrong file format! please upload again',
  'at most 10 parties can be added',
  'please select an external party first',
  'no data',
  'minimum cannot be greater than maximum',
  'upload failed',
  're-upload',
  'value range invalid',
  'please enter payment amount',
  'please enter condition time',
  'please enter 9-24 characters',
  'do not show this clause',
  'no duplicates found yet',
  'view all duplicate numbers',
  'this number duplicates the following contract numbers',
  'I know',
  'view',
  '+增加一行',
];

describe('form messages', () => {
  it.each(specStrings)('keeps the spec string %j', (text) => {
    expect(Object.values(formMessages)).toContain(text);
  });

  it('is the English catalog’s form section, and zh-CN translates every key', () => {
    expect(en.form).toBe(formMessages);
    expect(Object.keys(zhCN.form).sort()).toEqual(Object.keys(formMessages).sort());
    expect(zhCN.form.addRow).toBe('+增加一行');
  });

  it('keeps the same placeholders in both languages', () => {
    const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const key of Object.keys(formMessages) as (keyof typeof formMessages)[]) {
      expect(placeholders(zhCN.form[key]), key).toEqual(placeholders(formMessages[key]));
    }
  });

  it('fills placeholders', () => {
    expect(formMessage('pleaseEnter', { name: 'party A' })).toEqual({ key: 'pleaseEnter', params: { name: 'party A' }, text: 'please enter party A' });
    expect(formMessage('noData')).toEqual({ key: 'noData', text: 'no data' });
  });
});
