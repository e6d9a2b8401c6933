import { describe, expect, it } from 'vitest';
import type { FieldType } from '../../../src-shared/domain/enums';
import { FormValidation, FormValidationError, isMoneyEmpty, validateField } from '../../../src-shared/form/validation';

const field = (type: FieldType, required = false, extra: { maxlength?: number; name?: string } = {}) => ({
  id: 'f',
  name: extra.name ?? 'contract amount',
  type,
  required,
  ...(extra.maxlength ? { maxlength: extra.maxlength } : {}),
});
const texts = (issues: { field: string; message: { text: string } }[]) => issues.map((i) => `${i.field}: ${i.message.text}`);

describe('field rules', () => {
  it.each<[string, ReturnType<typeof field>, unknown, string[]]>([
    ['required text empty', field('text', true), '', ['f: Please enter contract amount']],
    ['required text blank', field('text', true), '   ', ['f: Please enter contract amount']],
    ['required text filled', field('text', true), 'x', []],
    ['optional text empty', field('text'), undefined, []],
    ['text over 1000', field('text'), 'x'.repeat(1001), ['f: At most 1000 characters']],
    ['text of 1000', field('textarea'), 'x'.repeat(1000), []],
    ['text over its maxlength', field('text', false, { maxlength: 50 }), 'x'.repeat(51), ['f: At most 50 characters']],
    ['required upload empty', field('upload', true), null, ['f: Please select contract amount']],
    ['required upload chosen', field('upload', true), { id: 'u', name: 'a.pdf', file: 'a' }, []],
    ['required money empty', field('money', true), null, ['f: Please enter contract amount']],
    ['required money 0', field('money', true), { amount: 0, unit: 'CNY' }, ['f: Please enter contract amount']],
    ['required money without amount', field('money', true), { amount: null, unit: 'CNY' }, ['f: Please enter contract amount']],
    ['required money set', field('money', true), { amount: 1, unit: 'CNY' }, []],
    ['optional money 0', field('money'), { amount: 0, unit: 'CNY' }, []],
    ['required select empty list', field('multiselect', true), [], ['f: Please enter contract amount']],
    ['number not a number', field('number'), '1.2.3', ['f: Please enter a valid number']],
    ['number as number', field('number', true), 0, []],
    ['date invalid', field('date'), '2026-02-30', ['f: Invalid date']],
    ['date valid', field('date', true), '2026-02-28', []],
    ['date-time valid', field('date-time'), '2026-02-28 09:30:00', []],
    ['date range reversed', field('daterange'), ['2026/03/01', '2026/02/01'], ['f: The start date cannot be after the end date']],
    ['date range malformed', field('daterange'), 'x', ['f: Invalid date']],
    ['bank account short', field('bankAccount'), '12345', ['f: Please enter 9 to 24 characters']],
    ['related contracts, one row', field('relatedContracts'), [{ relationType: 3, relatedContracts: [{ contractName: 'a', relationshipID: 1 }] }], ['f.0: Related contracts must contain at least two items']],
    ['related contracts, a bad row', field('relatedContracts'), [{ relationType: 3, relatedContracts: [{ contractName: 'a', relationshipID: 1 }, { contractName: 'b', relationshipID: 0 }] }], ['f.0.1: Each related contract needs a contract name and a relationship']],
    ['required party missing', field('inputSelect', true, { name: 'party A' }), undefined, ['f: Please enter party A']],
    ['required party nameless', field('inputSelectV2', true, { name: 'party A' }), [{ id: 0, name: '' }], ['f: Please enter party A']],
    ['clause without: Statement', field('clause', true, { name: 'payment' }), { statementId: null, fieldList: [], values: {} }, ['f: Please select payment']],
  ])('%s', (_, f, value, expected) => {
    expect(texts(validateField(f, value))).toEqual(expected);
  });

  it.each([
    [null, true],
    [{ amount: 0, unit: 'CNY' }, true],
    [{ amount: '', unit: 'CNY' }, true],
    [{ amount: -1, unit: 'CNY' }, false],
  ])('money %j is empty: %s', (value, empty) => {
    expect(isMoneyEmpty(value)).toBe(empty);
  });
});

describe('overall validation', () => {
  const fields = [
    { id: 'name', name: 'contract name', type: 'text' as const, required: true },
    { id: 'amount', name: 'contract amount', type: 'money' as const, required: true },
    { id: 'party', name: 'party A', type: 'inputSelect' as const, required: true },
    { id: 'terms', name: 'payment terms', type: 'clause' as const, required: true },
    { id: 'links', name: 'related', type: 'relatedContracts' as const, required: false },
  ];
  const valid = {
    name: 'lease',
    amount: { amount: 100, unit: 'CNY' },
    party: [{ id: 3, name: 'ACME' }],
    terms: { statementId: 1, fieldList: [], values: {} },
    links: [],
  };

  it('passes a valid form', () => {
    expect(() => new FormValidation().validate(fields, valid)).not.toThrow();
  });

  it("collects field rules, clause sub-forms and party validators into one 'Validation failed'", () => {
    const values = {
      ...valid,
      name: '',
      party: [],
      terms: { statementId: 1, fieldList: [{ id: 'x', name: 'rate', required: true, positionName: 'p_x_1' }], values: {} },
      links: [{ relationType: 1, relatedContracts: [] }],
    };
    let thrown: unknown;
    try {
      new FormValidation().validate(fields, values);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FormValidationError);
    const error = thrown as FormValidationError;
    expect(error.message).toBe('Validation failed');
    expect(texts(error.issues)).toEqual([
      'name: Please enter contract name',
      'party: Please enter party A',
      'terms.p_x_1: Please enter rate',
      'links.0: Related contracts must contain at least two items',
    ]);
    expect(error.event).toEqual({ type: 'validate', issues: error.issues });
  });

  it('skips ignored field keys (and their sub-keys) until the list is cleared', () => {
    const validation = new FormValidation();
    const values = { ...valid, name: '', terms: { statementId: null, fieldList: [], values: {} } };
    validation.ignore(['name', 'terms']);
    expect(validation.ignoredKeys).toEqual(['name', 'terms']);
    expect(validation.issues(fields, values)).toEqual([]);
    validation.clearIgnored();
    expect(validation.issues(fields, values).map((i) => i.field)).toEqual(['name', 'terms']);
  });

  it('submits only after validating; a failure emits an error event of type validate', () => {
    const validation = new FormValidation();
    expect(validation.submit(fields, valid)).toEqual({ type: 'submit', values: valid });
    const outcome = validation.submit(fields, { ...valid, amount: { amount: 0, unit: 'CNY' } });
    expect(outcome.type === 'error' && outcome.event.type).toBe('validate');
    expect(outcome.type === 'error' && texts(outcome.event.issues)).toEqual(['amount: Please enter contract amount']);
  });
});
