import { describe, expect, it } from 'vitest';
import { changeLawFirms, lawyersOfFirms } from '../../../src-shared/form/agent';
import { fieldValueSchema, type FieldOption } from '../../../src-shared/form/field-config';
import { appendOptionPage, cascaderPath, isSelectableOption, selectableValues } from '../../../src-shared/form/options';

const option = (id: string, extra: Partial<FieldOption> = {}): FieldOption => ({ id, name: `name ${id}`, ...extra });

describe('dynamic select pages', () => {
  it.each([
    [[], [option('1'), option('2')], ['1', '2']],
    [[option('1'), option('2')], [option('3')], ['1', '2', '3']],
    [[option('1'), option('2')], [option('2'), option('3')], ['1', '2', '3']],
    [[option('1')], [], ['1']],
  ])('%j + %j → %j', (loaded, page, ids) => {
    expect(appendOptionPage(loaded, page).map((o) => o.id)).toEqual(ids);
  });
});

describe('cascader with disabled nodes (case type)', () => {
  const tree = [
    option('civil', { children: [option('contract'), option('tort', { disabled: true, children: [option('injury')] })] }),
    option('criminal', { disabled: true }),
  ];
  it.each([
    ['contract', ['civil', 'contract'], true],
    ['tort', ['civil', 'tort'], false],
    ['injury', ['civil', 'tort', 'injury'], false],
    ['criminal', ['criminal'], false],
    ['missing', [], false],
  ])('%s: path %j, selectable %s', (id, path, selectable) => {
    expect(cascaderPath(tree, id).map((o) => o.id)).toEqual(path);
    expect(isSelectableOption(tree, id)).toBe(selectable);
  });

  it('keeps only selectable values of a multi select', () => {
    expect(selectableValues(tree, ['contract', 'injury', 'civil'])).toEqual(['contract', 'civil']);
  });
});

describe('agent information', () => {
  const lawyers = [
    { id: 'l1', name: 'Li', lawFirmID: 'f1' },
    { id: 'l2', name: 'Wang', lawFirmID: 'f2' },
  ];
  it('offers the lawyers of the chosen firms', () => {
    expect(lawyersOfFirms(lawyers, ['f2']).map((l) => l.id)).toEqual(['l2']);
  });

  it('drops chosen lawyers whose firm is no longer chosen', () => {
    expect(changeLawFirms({ lawFirmIDList: ['f1', 'f2'], lawyerIDList: ['l1', 'l2'] }, ['f1'], lawyers)).toEqual({
      lawFirmIDList: ['f1'],
      lawyerIDList: ['l1'],
    });
  });
});

describe('value schema by field type', () => {
  it.each([
    ['money', { amount: 100, unit: 'CNY' }, { amount: '100' }],
    ['upload', { id: 1, name: 'a', file: 'f' }, { name: 'a' }],
    ['inputSelect', [{ id: 0, name: '' }], [{ name: 'x' }]],
    ['agentInformation', { lawFirmIDList: [], lawyerIDList: [] }, {}],
    ['relatedContracts', [], null],
    ['bankAccount', '123456789', 123],
  ] as const)('%s', (type, valid, invalid) => {
    const schema = fieldValueSchema(type)!;
    expect(schema.safeParse(valid).success).toBe(true);
    expect(schema.safeParse(invalid).success).toBe(false);
  });

  it('has no structured schema for plain types', () => {
    expect(fieldValueSchema('text')).toBeNull();
  });
});
