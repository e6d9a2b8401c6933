import { describe, expect, it } from 'vitest';
import { fieldTypes } from '../../../src-shared/domain/enums';
import {
  agentValueSchema,
  clauseSchema,
  externalPartyDetailSchema,
  formFieldsSchema,
  moneySchema,
  parseFormField,
  partyValueSchema,
  relatedContractsValueSchema,
  uploadValueSchema,
} from '../../../src-shared/form/field-config';

const fullConfig = {
  id: 17,
  name: 'contract amount',
  type: 'money',
  rawType: 'money',
  required: true,
  placeholder: 'amount',
  options: [{ id: 1, name: 'a', children: [{ id: '1-1', name: 'b', disabled: true }] }],
  disabled: false,
  isEdit: false,
  preview: false,
  maxlength: 15,
  clearable: true,
  filterable: true,
  remote: false,
  tag: true,
  privateConfig: { numberFormat: 5, roundingWay: 1, dynamicConfig: { isDynamicField: true } },
  fieldConfig: {
    date: { dateFormat: 'yyyy/MM/dd' },
    money: { isWordAmount: true, isWithUnit: true },
    fieldContent: { contentType: 2 },
    calculationConditionGroup: {
      valueList: [{ valueMethod: 1, fieldId: 3 }, { valueMethod: 2, value: '0.1' }],
      calculationWays: [3],
    },
  },
  alterEditStatus: 2,
  partyType: 2,
  subjectGroup: 'A',
  bookmarkNames: ['amount'],
};

describe('form field config', () => {
  it('parses every property of spec 3 and keys ids as text', () => {
    const parsed = parseFormField(fullConfig);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data.id).toBe('17');
    expect(parsed.data.options?.[0]?.children?.[0]).toEqual({ id: '1-1', name: 'b', disabled: true });
    expect(parsed.data.fieldConfig?.calculationConditionGroup?.valueList[0]).toEqual({ valueMethod: 1, fieldId: '3' });
    expect(parsed.data.privateConfig?.dynamicConfig?.isDynamicField).toBe(true);
    expect(parsed.data.bookmarkNames).toEqual(['amount']);
  });

  it.each(fieldTypes)('accepts the field type %s', (type) => {
    expect(parseFormField({ id: 'f', name: 'n', type }).success).toBe(true);
  });

  it('defaults required to false', () => {
    const parsed = parseFormField({ id: 'f', name: 'n', type: 'text' });
    expect(parsed.success && parsed.data.required).toBe(false);
  });

  it.each(['richtext', 'Money', ''])('rejects the unknown field type %j with a clear message', (type) => {
    const parsed = parseFormField({ id: 'f', name: 'n', type });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues[0]?.path).toEqual(['type']);
    expect(parsed.error.issues[0]?.message).toBe(`Unknown field type ${type}`);
  });

  it.each([
    ['an operator count that does not fit the values', { valueList: [{ valueMethod: 2, value: 1 }], calculationWays: [1] }],
    ['an unknown operator', { valueList: [{ valueMethod: 2, value: 1 }, { valueMethod: 2, value: 2 }], calculationWays: [7] }],
    ['an unknown value method', { valueList: [{ valueMethod: 3, value: 1 }], calculationWays: [] }],
  ])('rejects a calculation group with %s', (_, group) => {
    expect(parseFormField({ id: 'f', name: 'n', type: 'number', fieldConfig: { calculationConditionGroup: group } }).success).toBe(false);
  });

  it('names the failing field in a list', () => {
    const parsed = formFieldsSchema.safeParse([{ id: 1, name: 'a', type: 'text' }, { id: 2, name: 'b', type: 'nope' }]);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error.issues[0]?.path).toEqual([1, 'type']);
  });
});

describe('field values', () => {
  it.each([
    ['money', moneySchema, { amount: 12345, unit: 'CNY' }, { amount: 1.5, unit: 'CNY' }],
    ['upload', uploadValueSchema, { id: 'u1', name: 'a.pdf', file: 'files/a.pdf' }, { id: 'u1' }],
    ['party', partyValueSchema, { id: 0, name: '', subtype: 1 }, { id: 1, name: 'x', subtype: 3 }],
    ['external party detail', externalPartyDetailSchema, { subType: 'naturalPerson', riskCount: 2, rating: 40 }, { subType: 'robot' }],
    ['agent', agentValueSchema, { lawFirmIDList: [1], lawyerIDList: ['2'] }, { lawFirmIDList: [] }],
    [
      'clause',
      clauseSchema,
      {
        labelID: 9,
        isNullable: true,
        statementList: [{ id: 1, name: 's', content: [[{ kind: 'text', text: 'pay ' }, { kind: 'field', fieldId: 4 }]], fieldList: [{ id: 4, name: 'amount' }] }],
      },
      { labelID: 9, isNullable: true, statementList: [{ id: 1, name: 's', content: [[{ kind: 'image' }]], fieldList: [] }] },
    ],
    ['related contracts', relatedContractsValueSchema, [{ relationType: 3, relatedContracts: [{ contractName: 'a', relationshipID: 1 }] }], [{ relationType: 3 }]],
  ] as const)('%s: accepts a valid value and refuses a malformed one', (_, schema, valid, invalid) => {
    expect(schema.safeParse(valid).success).toBe(true);
    expect(schema.safeParse(invalid).success).toBe(false);
  });
});
