import { describe, expect, it } from 'vitest';
import { scoreError } from '../../src-shared/rules/scoring';
import { isValidBankAccount } from '../../src-shared/rules/counterparties';

describe('score rule', () => {
  it('accepts whole numbers from 0 to the full score, typed or numeric', () => {
    for (const value of [0, 5, 20, '0', '7', ' 20 ']) expect(scoreError(value, 20)).toBeUndefined();
  });
  it('gives the spec’s message for each kind of bad score', () => {
    expect(scoreError(null, 20)).toBe('this field cannot be empty');
    expect(scoreError('  ', 20)).toBe('this field cannot be empty');
    expect(scoreError(-1, 20)).toBe('score must be an integer, positive');
    expect(scoreError('-1', 20)).toBe('score must be an integer, positive');
    expect(scoreError(2.5, 20)).toBe('score must be an integer, positive');
    expect(scoreError('2.5', 20)).toBe('score must be an integer, positive');
    expect(scoreError(Number.NaN, 20)).toBe('score must be an integer, positive');
    expect(scoreError(21, 20)).toBe('score cannot be greater than full score');
    expect(scoreError('21', 20)).toBe('score cannot be greater than full score');
  });
});

describe('bank account rule', () => {
  it('takes 9 to 24 letters, digits, hyphens and underscores', () => {
    for (const ok of ['123456789', 'ABC-123_456', 'a'.repeat(24)]) expect(isValidBankAccount(ok)).toBe(true);
    for (const bad of ['12345678', 'a'.repeat(25), '1234 56789', '123456789!', '账户123456789']) expect(isValidBankAccount(bad)).toBe(false);
  });
});
