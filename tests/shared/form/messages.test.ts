import { describe, expect, it } from 'vitest';
import { formMessage, formMessages } from '../../../src-shared/form/messages';
import { en } from '../../../src-shared/i18n/en';
import { zhCN } from '../../../src-shared/i18n/zh-CN';

// The spec's form messages (points 2, 5 and 8) in sentence case, their meaning kept (UI.md).
const specStrings = [
  'Validation failed',
  'Related contracts must contain at least two items',
  'Please enter the number',
  'The current file format is not supported',
  'The uploaded file exceeds the maximum size. Please upload it again.',
  'Wrong file format. Please upload it again.',
  'At most 10 parties can be added',
  'Please select an external party first',
  'No data',
  'The minimum cannot be greater than the maximum',
  'Upload failed',
  'Upload again',
  'The value range is invalid',
  'Please enter the payment amount',
  'Please enter the condition time',
  'Please enter 9 to 24 characters',
  'Do not show this clause',
  'No duplicates found yet',
  'View all duplicate numbers',
  'This number duplicates the following contract numbers',
  'Got it',
  'View',
  '+ Add a row',
];

describe('form messages', () => {
  it.each(specStrings)('keeps the spec string %j in sentence case', (text) => {
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
    expect(formMessage('pleaseEnter', { name: 'party A' })).toEqual({ key: 'pleaseEnter', params: { name: 'party A' }, text: 'Please enter party A' });
    expect(formMessage('noData')).toEqual({ key: 'noData', text: 'No data' });
  });
});
