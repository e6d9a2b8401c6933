// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormMode } from '../../../src-shared/domain/enums';
import type { FieldOption } from '../../../src-shared/form/field-config';
import { emptyCatalogue, fakeServices, field, renderForm } from './support';

// Each basic field type in each mode: preview shows the value as read-only text, edit an enabled
// input, disabled the same input locked.

afterEach(cleanup);

const options: FieldOption[] = [
  { id: 'a', name: 'Alpha' },
  { id: 'b', name: 'Beta' },
];
const tree: FieldOption[] = [
  { id: 'r1', name: 'Root', children: [{ id: 'c1', name: 'Child' }] },
  { id: 'r2', name: 'Closed', disabled: true, children: [{ id: 'c2', name: 'Below closed' }] },
];
const services = fakeServices({
  catalogue: {
    ...emptyCatalogue,
    contractTypes: [
      { id: 'sales', name: 'Sales', parentId: null, disabled: true },
      { id: 'goods', name: 'Goods', parentId: 'sales', disabled: false },
    ],
  },
});

type Config = Parameters<typeof field>[0];
interface Case {
  name: string;
  config: Omit<Config, 'id'>;
  value: unknown;
  preview: string;
  /** Types shown as text in every mode (system values, directories). */
  readOnly?: boolean;
}

const cases: Case[] = [
  { name: 'text', config: { type: 'text' }, value: 'hello', preview: 'hello' },
  { name: 'textarea', config: { type: 'textarea' }, value: 'line 1\nline 2', preview: 'line 1\nline 2' },
  { name: 'number', config: { type: 'number' }, value: '12.5', preview: '12.5' },
  { name: 'percent number', config: { type: 'number', privateConfig: { numberFormat: 6 } }, value: '12.50', preview: '12.50%' },
  { name: 'number range', config: { type: 'number', rawType: 'numberRange' }, value: { min: '1', max: '2.5' }, preview: '1 to 2.5' },
  { name: 'money', config: { type: 'money' }, value: { amount: 123450, unit: 'USD' }, preview: '1,234.50' },
  {
    name: 'money with unit and words',
    config: { type: 'money', fieldConfig: { money: { isWithUnit: true, isWordAmount: true } } },
    value: { amount: 123450, unit: 'USD' },
    preview: '1,234.50 USDIn words: 壹仟贰佰叁拾肆美元伍拾美分',
  },
  { name: 'date', config: { type: 'date' }, value: '2026-03-04', preview: '4 Mar 2026' },
  { name: 'date with dateFormat', config: { type: 'date', fieldConfig: { date: { dateFormat: 'YYYY/MM/DD' } } }, value: '2026-03-04', preview: '2026/03/04' },
  { name: 'daterange', config: { type: 'daterange' }, value: ['2026/03/04', '2026/04/05'], preview: '4 Mar 2026 ~ 5 Apr 2026' },
  { name: 'date-time', config: { type: 'date-time' }, value: '2026-03-04 05:06:07', preview: '4 Mar 2026, 05:06:07' },
  { name: 'bool', config: { type: 'bool' }, value: true, preview: 'Yes' },
  { name: 'select', config: { type: 'select', options }, value: 'b', preview: 'Beta' },
  { name: 'multiselect', config: { type: 'multiselect', options }, value: ['a', 'b'], preview: 'Alpha, Beta' },
  { name: 'radio', config: { type: 'radio', options }, value: 'a', preview: 'Alpha' },
  { name: 'checkbox', config: { type: 'checkbox', options }, value: ['b'], preview: 'Beta' },
  { name: 'cascader', config: { type: 'cascader', options: tree }, value: 'c1', preview: 'Root / Child' },
  { name: 'caseType', config: { type: 'caseType', options: tree }, value: 'c1', preview: 'Root / Child' },
  { name: 'contractType', config: { type: 'contractType' }, value: 'goods', preview: 'Sales / Goods' },
  { name: 'dynamic select', config: { type: 'select', privateConfig: { dynamicConfig: { isDynamicField: true } } }, value: { id: '7', name: 'Seven' }, preview: 'Seven' },
  { name: 'bankAccount', config: { type: 'bankAccount' }, value: '6222-0000_1111', preview: '6222-0000_1111' },
  { name: 'offlineArchiveAddress as text', config: { type: 'offlineArchiveAddress' }, value: 'Room 3', preview: 'Room 3' },
  { name: 'offlineArchiveAddress from options', config: { type: 'offlineArchiveAddress', options }, value: 'a', preview: 'Alpha' },
  { name: 'serialNumber', config: { type: 'serialNumber' }, value: 'SN-0001', preview: 'SN-0001', readOnly: true },
  { name: 'templateName', config: { type: 'templateName' }, value: 'Sales template', preview: 'Sales template', readOnly: true },
];

const controls = (id: string) => [...screen.getByTestId(`field-${id}`).querySelectorAll<HTMLInputElement>('input, textarea, select, button')];

describe.each(cases)('$name', ({ config, value, preview, readOnly }) => {
  it('preview shows the value as text', () => {
    renderForm({ fields: [field({ id: 'f', ...config })], initialValues: { f: value }, mode: 'preview', services });
    expect(screen.getByTestId('preview-f').textContent).toBe(preview);
    expect(controls('f')).toEqual([]);
  });

  it('preview shows a dash without a value', () => {
    renderForm({ fields: [field({ id: 'f', ...config })], mode: 'preview', services });
    expect(screen.getByTestId('preview-f').textContent).toBe('--');
  });

  it.each<FormMode>(['edit', 'disabled'])('%s mode', (mode) => {
    renderForm({ fields: [field({ id: 'f', ...config })], initialValues: { f: value }, mode, services });
    if (readOnly) {
      expect(screen.getByTestId('preview-f').textContent).toBe(preview);
      return;
    }
    const inputs = controls('f');
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(input.disabled).toBe(mode === 'disabled');
    expect(screen.queryByTestId('preview-f')).toBeNull();
  });
});

describe('image-preview', () => {
  it.each<FormMode>(['preview', 'edit', 'disabled'])('shows a web image in %s mode', (mode) => {
    renderForm({ fields: [field({ id: 'i', type: 'image-preview' })], initialValues: { i: { file: 'https://files.example/a.png' } }, mode });
    expect(screen.getByTestId('image-i').getAttribute('src')).toBe('https://files.example/a.png');
  });

  it.each(['javascript:alert(1)', '//evil.example/x.png', 'data:text/html;base64,AAAA', undefined])('refuses %s', (source) => {
    renderForm({ fields: [field({ id: 'i', type: 'image-preview' })], initialValues: { i: source } });
    expect(screen.queryByTestId('image-i')).toBeNull();
    expect(screen.getByTestId('preview-i').textContent).toBe('No image to show');
  });
});

it.each<FormMode>(['preview', 'edit', 'disabled'])('custom fields show a notice in %s mode and keep their value', (mode) => {
  const { changes } = renderForm({ fields: [field({ id: 'c', type: 'custom' })], initialValues: { c: { anything: '<script>' } }, mode });
  expect(screen.getByTestId('custom-c').textContent).toBe('This custom field cannot be shown in this app.');
  expect(changes).not.toHaveBeenCalled();
});
