import { describe, expect, it } from 'vitest';
import { sanitizeBankAccount, validateBankAccount } from '../../../src-shared/form/bank-account';
import { defaultRelationships, relationshipChoices, validateRelatedContracts } from '../../../src-shared/form/related-contracts';

const row = (contractName: string, relationshipID: number) => ({ contractName, relationshipID });

describe('related contracts', () => {
  it.each([
    ['no groups', [], []],
    ['two valid rows', [{ relationType: 3, relatedContracts: [row('a', 1), row('b', 2)] }], []],
    ['one row', [{ relationType: 3, relatedContracts: [row('a', 1)] }], [{ group: 0, text: 'Related contracts must contain at least two items' }]],
    ['no rows', [{ relationType: 3, relatedContracts: [] }], [{ group: 0, text: 'Related contracts must contain at least two items' }]],
    [
      'an empty contract name',
      [{ relationType: 3, relatedContracts: [row('a', 1), row(' ', 2)] }],
      [{ group: 0, row: 1, text: 'Each related contract needs a contract name and a relationship' }],
    ],
    [
      'relationshipID 0 in the second group',
      [
        { relationType: 3, relatedContracts: [row('a', 1), row('b', 1)] },
        { relationType: 1, relatedContracts: [row('c', 0)] },
      ],
      [
        { group: 1, text: 'Related contracts must contain at least two items' },
        { group: 1, row: 0, text: 'Each related contract needs a contract name and a relationship' },
      ],
    ],
  ])('%s', (_, groups, expected) => {
    expect(validateRelatedContracts(groups).map(({ message, ...at }) => ({ ...at, text: message.text }))).toEqual(expected);
  });
});

describe('bank account', () => {
  it.each([
    ['6222 0202-0001_23', '62220202-0001_23'],
    ['中国银行 6222—0001', '6222—0001'],
    ['abc!@#123', 'abc123'],
    ['1234567890123456789012345678', '123456789012345678901234'],
  ])('typing %j keeps %j', (typed, kept) => {
    expect(sanitizeBankAccount(typed)).toBe(kept);
  });

  it.each([
    ['', null],
    ['12345678', 'Please enter 9 to 24 characters'],
    ['123456789', null],
    ['AB-12_34–56', null],
    ['123456789012345678901234', null],
    ['1234567890123456789012345', 'Please enter 9 to 24 characters'],
    ['1234 56789', 'Only letters, digits, hyphens, dashes and underscores are allowed'],
  ])('%j → %j', (value, message) => {
    expect(validateBankAccount(value)?.text ?? null).toBe(message);
  });
});

describe('relationships to choose from', () => {
  it("offers the built-in relationships when the field lists none, and the field's own options when it does", () => {
    expect(relationshipChoices(undefined)).toEqual(defaultRelationships.map(({ id, key }) => ({ id, key })));
    expect(relationshipChoices([])).toHaveLength(defaultRelationships.length);
    expect(relationshipChoices([{ id: '7', name: 'sub-contract' }, { id: '0', name: 'none' }, { id: 'x', name: 'not a number' }])).toEqual([{ id: 7, name: 'sub-contract' }]);
  });

  it('never offers 0, the id of a row with no relationship (spec 5)', () => {
    expect(relationshipChoices(undefined).every((choice) => choice.id !== 0)).toBe(true);
  });
});
