import { describe, expect, it } from 'vitest';
import type { FieldConfig } from '../../src-shared/domain/contract-forms';
import { blankContractFields } from '../../src-shared/rules/blank-contract';
import { contractTerms, contractTypeOf, ledgerTerms, refuseTermsHeldByForm, termField, termsHeldByForm } from '../../src-shared/rules/contract-terms';

// The one rule that reads a contract's ledger terms from its form (server, seed and desktop share it).

const fields: FieldConfig[] = [
  { id: 'contractName', name: '合同名称', type: 'text' },
  { id: 'ourParty', name: '我方', type: 'inputSelectV2', partyType: 1 },
  { id: 'counterparty', name: '相对方', type: 'inputSelectV2', partyType: 2 },
  { id: 'deposit', name: '保证金', type: 'money' },
  { id: 'amount', name: '合同金额', type: 'money' },
  { id: 'startDate', name: '开始日期', type: 'date' },
  { id: 'signDate', name: '签订日期', type: 'date' },
];

describe('contract terms', () => {
  it('finds each term by the field named for it, not by the first field of its type', () => {
    expect(termField(fields, 'counterparty')?.id).toBe('counterparty');
    expect(termField(fields, 'amount')?.id).toBe('amount');
    expect(termField(fields, 'signDate')?.id).toBe('signDate');
  });

  it('takes the only field of a type for the counterparty and amount, never an unnamed date or an inner party', () => {
    const english: FieldConfig[] = [
      { id: 'party', name: 'supplier', type: 'inputSelect' },
      { id: 'price', name: 'price', type: 'money' },
      { id: 'due', name: 'due date', type: 'date' },
      { id: 'signed', name: 'x', rawType: 'signDate', type: 'date' },
    ];
    expect(termField(english, 'counterparty')?.id).toBe('party');
    expect(termField(english, 'amount')?.id).toBe('price');
    expect(termField(english, 'signDate')?.id).toBe('signed');
    expect(termField([{ id: 'due', name: 'due date', type: 'date' }], 'signDate')).toBeUndefined();
    expect(termField([{ id: 'ours', name: 'ours', type: 'inputSelectV2', partyType: 1 }], 'counterparty')).toBeUndefined();
    expect(termField([{ id: 'a', name: 'a', type: 'money' }, { id: 'b', name: 'b', type: 'money' }], 'amount')).toBeUndefined();
  });

  it('reads the first chosen party, the money and the day; a party typed in has no counterparty id', () => {
    const values = {
      counterparty: [{ id: 'p-1', name: ' 上海华信科技有限公司 ' }, { id: 'p-2', name: 'other' }],
      deposit: { amount: 100, unit: 'CNY' },
      amount: { amount: 1_250_000, unit: 'USD' },
      signDate: '2026-03-04',
    };
    expect(contractTerms(fields, values)).toEqual({ counterparty: { id: 'p-1', name: '上海华信科技有限公司' }, amount: { amount: 1_250_000, unit: 'USD' }, signDate: '2026-03-04' });
    expect(contractTerms(fields, { counterparty: [{ id: 0, name: 'typed in' }] }).counterparty).toEqual({ id: null, name: 'typed in' });
  });

  it('gives null for an empty or misshapen value and leaves out the terms the fields do not hold', () => {
    expect(contractTerms(fields, { counterparty: [], amount: { amount: 1.5, unit: 'CNY' }, signDate: '2026/03/04' })).toEqual({ counterparty: null, amount: null, signDate: null });
    expect(contractTerms([{ id: 'remark', name: 'remark', type: 'textarea' }], { remark: 'x' })).toEqual({});
  });

  it('gives the ledger row the counterparty name, the money and the day', () => {
    expect(ledgerTerms(fields, { counterparty: [{ id: 'p-1', name: 'Acme Ltd.' }], amount: { amount: 500, unit: 'CNY' } })).toEqual({ counterpartName: 'Acme Ltd.', counterpartyId: 'p-1', amount: { amount: 500, unit: 'CNY' }, signDate: null });
    expect(ledgerTerms([], { anything: 1 })).toEqual({});
  });

  it('takes the contract type chosen in the form, else the one given beside it (issue 29)', () => {
    const typed: FieldConfig[] = [...fields, { id: 'type', name: '合同类型', type: 'contractType' }];
    expect(contractTypeOf(typed, { type: 't-sales' }, 't-template')).toBe('t-sales');
    expect(contractTypeOf(typed, { type: '' }, 't-template')).toBe('t-template');
    expect(contractTypeOf(fields, {}, 't-template')).toBe('t-template');
    expect(contractTerms(typed, {}).contractTypeId).toBeNull();
  });

  it('reads every term of the built-in blank contract form', () => {
    const values = { contractType: 't-1', counterparty: [{ id: 'p-1', name: 'Acme Ltd.' }], amount: { amount: 500, unit: 'USD' }, signDate: '2026-11-20' };
    expect(contractTerms(blankContractFields, values)).toEqual({
      contractTypeId: 't-1',
      counterparty: { id: 'p-1', name: 'Acme Ltd.' },
      amount: { amount: 500, unit: 'USD' },
      signDate: '2026-11-20',
    });
  });

  it('refuses a term set beside the form that holds it to another value, and nothing else', () => {
    const form = { amount: { amount: 100, unit: 'CNY' }, signDate: '2026-01-02' };
    // The form holds the signing date and the amount: set to another value beside it, each is refused.
    expect(termsHeldByForm(fields, form, { signDate: '2026-12-01', amount: { amount: 200, unit: 'CNY' } })).toEqual(['signDate', 'amount']);
    // Set to what the form gives, it changes nothing, and is taken.
    expect(termsHeldByForm(fields, form, { signDate: '2026-01-02', amount: { amount: 100, unit: 'CNY' } })).toEqual([]);
    // A form without a field for the term leaves the column to the patch; an empty type field leaves a type given beside it.
    expect(termsHeldByForm([{ id: 'contractName', name: '合同名称', type: 'text' }], {}, { signDate: '2026-12-01', amount: null })).toEqual([]);
    expect(termsHeldByForm(blankContractFields, {}, { contractTypeId: 'type-1' })).toEqual([]);
    expect(termsHeldByForm(blankContractFields, { contractType: 'type-2' }, { contractTypeId: 'type-1' })).toEqual(['contractTypeId']);
    expect(() => refuseTermsHeldByForm(blankContractFields, {}, { signDate: '2026-12-01' })).toThrow(
      expect.objectContaining({ error: expect.objectContaining({ code: 'validation_failed', issues: [{ path: 'patch.signDate', message: expect.stringContaining('signing date') }], reason: { key: 'termInForm', params: { term: 'signDate' } } }) }),
    );
  });
});
