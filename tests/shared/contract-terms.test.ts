import { describe, expect, it } from 'vitest';
import type { FieldConfig } from '../../src-shared/domain/contract-forms';
import { contractTerms, ledgerTerms, termField } from '../../src-shared/rules/contract-terms';

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
    expect(ledgerTerms(fields, { counterparty: [{ id: 'p-1', name: 'Acme Ltd.' }], amount: { amount: 500, unit: 'CNY' } })).toEqual({ counterpartName: 'Acme Ltd.', amount: { amount: 500, unit: 'CNY' }, signDate: null });
    expect(ledgerTerms([], { anything: 1 })).toEqual({});
  });
});
