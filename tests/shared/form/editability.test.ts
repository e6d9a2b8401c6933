import { describe, expect, it } from 'vitest';
import type { FieldType, FormMode } from '../../../src-shared/domain/enums';
import { fieldMode, isFieldEditable, shouldSubmitOnEnter } from '../../../src-shared/form/editability';

const field = (type: FieldType, extra: { name?: string; isEdit?: boolean; alterEditStatus?: number } = {}) => ({
  type,
  name: extra.name ?? 'field',
  isEdit: extra.isEdit,
  alterEditStatus: extra.alterEditStatus,
});

describe('editability in contract-alteration mode', () => {
  it.each([
    ['text with alterEditStatus 2', field('text', { alterEditStatus: 2 }), true],
    ['money with alterEditStatus 2', field('money', { alterEditStatus: 2 }), true],
    ['text with alterEditStatus 2 even when isEdit is set', field('text', { alterEditStatus: 2, isEdit: true }), true],
    ['text with alterEditStatus 1', field('text', { alterEditStatus: 1 }), false],
    ['text without alterEditStatus', field('text'), false],
    ['upload', field('upload', { alterEditStatus: 2 }), false],
    ['contract type', field('contractType', { alterEditStatus: 2 }), false],
    ['contract number', field('contractNumber', { alterEditStatus: 2 }), false],
    ['serial number', field('serialNumber', { alterEditStatus: 2 }), false],
    ["the field named 'contract name'", field('text', { name: 'contract name', alterEditStatus: 2 }), false],
    ["the field named '合同名称'", field('text', { name: ' 合同名称 ', alterEditStatus: 2 }), false],
  ])('%s → editable %s', (_, f, expected) => {
    expect(isFieldEditable(f, { alteration: true })).toBe(expected);
  });
});

describe('editability otherwise', () => {
  it.each([
    ['isEdit unset', field('text'), true],
    ['isEdit false', field('upload', { isEdit: false }), true],
    ['isEdit set', field('text', { isEdit: true }), false],
    ["the field named 'contract name'", field('text', { name: 'contract name' }), true],
  ])('%s → editable %s', (_, f, expected) => {
    expect(isFieldEditable(f, { alteration: false })).toBe(expected);
  });
});

describe('field mode', () => {
  it.each<[string, FormMode, { preview?: boolean; disabled?: boolean; isEdit?: boolean }, FormMode]>([
    ['preview form', 'preview', {}, 'preview'],
    ['disabled form', 'disabled', {}, 'disabled'],
    ['edit form', 'edit', {}, 'edit'],
    ['preview field in an edit form', 'edit', { preview: true }, 'preview'],
    ['disabled field in an edit form', 'edit', { disabled: true }, 'disabled'],
    ['isEdit field in an edit form', 'edit', { isEdit: true }, 'disabled'],
    ['isEdit field in a preview form', 'preview', { isEdit: true }, 'preview'],
  ])('%s → %s', (_, formMode, extra, expected) => {
    expect(fieldMode({ ...field('text'), ...extra }, formMode, { alteration: false })).toBe(expected);
  });
});

describe('submit on Enter', () => {
  it.each([
    ['Enter', true, true],
    ['Enter', false, false],
    ['a', true, false],
  ])('%s with submitOnEnter %s → %s', (key, submitOnEnter, expected) => {
    expect(shouldSubmitOnEnter(key, submitOnEnter)).toBe(expected);
  });
});
