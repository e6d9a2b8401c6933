import { describe, expect, it } from 'vitest';
import type { FormField } from '../../src-shared/form/field-config';
import { changedValues, contractNameField, reasonError, templateFormFields, typedContractNumber } from '../../src-renderer/features/contracts/draftValues';

const field = (id: string, name: string, type: FormField['type']): FormField => ({ id, name, type, required: false });

describe('what a save request takes from the form', () => {
  const fields = [field('n', 'contract name', 'text'), field('no', 'number', 'contractNumber'), field('a', 'amount', 'money')];

  it('finds the contract-name field by the spec name', () => {
    expect(contractNameField(fields)?.id).toBe('n');
    expect(contractNameField([field('x', 'other', 'text')])).toBeUndefined();
  });

  it.each([
    [{ no: ' HT-1 ' }, 'HT-1'],
    [{ no: '   ' }, null],
    [{}, null],
    [{ no: 7 }, null],
  ])('typed number %j → %j (null asks for an automatic one)', (values, expected) => expect(typedContractNumber(fields, values)).toBe(expected));

  it('sends only the values an alteration changed, of the fields it may change; an emptied value as null', () => {
    const alterable = (f: FormField): FormField => ({ ...f, alterEditStatus: 2 });
    const form = [alterable(field('a', 'amount', 'money')), alterable(field('b', 'remark', 'textarea')), alterable(field('c', 'place', 'text')), field('d', 'locked', 'text')];
    const before = { a: { amount: 100, unit: 'CNY' }, b: 'x', d: 'kept' };
    expect(changedValues(form, before, { a: { amount: 200, unit: 'CNY' }, b: 'x', c: 'new', d: 'changed anyway' })).toEqual({ a: { amount: 200, unit: 'CNY' }, c: 'new' });
    expect(changedValues(form, before, { ...before, b: undefined })).toEqual({ b: null });
    // The same money with its keys in another order, and a field empty before and after, are no change.
    expect(changedValues(form, before, { ...before, a: { unit: 'CNY', amount: 100 }, c: '' })).toEqual({});
  });

  it('reads a template’s field configs, and refuses an unknown field type', () => {
    expect(templateFormFields(null)).toEqual([]);
    expect(templateFormFields({ fields: [{ id: 'a', name: 'amount', type: 'money' }] })?.[0]).toMatchObject({ id: 'a', required: false });
    expect(templateFormFields({ fields: [{ id: 'a', name: 'x', type: 'hologram' as never }] })).toBeNull();
  });
});

describe('the alteration reason (at most 2000 characters, required)', () => {
  it.each([
    ['', 'contracts.reasonRequired'],
    ['   ', 'contracts.reasonRequired'],
    ['x'.repeat(2001), 'contracts.reasonTooLong'],
    ['price agreed again', null],
    ['x'.repeat(2000), null],
  ])('%j → %s', (reason, expected) => expect(reasonError(reason)).toBe(expected));
});
