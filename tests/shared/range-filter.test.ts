import { describe, expect, it } from 'vitest';
import { cellText, optionLabelKey, taskStateKeys, type CellWords } from '../../src-shared/domain/ledger-cells';
import { ledgerFieldCatalogue } from '../../src-shared/domain/ledger-fields';
import { TaskState } from '../../src-shared/domain/enums';
import { rangeBoundText, rangeBoundValue, rangeInvertedMessage, rangeProblem } from '../../src-shared/rules/range-filter';

// The ledger's number and money range bounds (spec 5, 9) and its cells' words (issue 28 item 8).

describe('range filter bounds', () => {
  it('keep at most 8 decimals (cut, not rounded) and 15 characters of a number', () => {
    expect(rangeBoundText('1.123456789')).toBe('1.12345678');
    expect(rangeBoundText('12a3.4.5')).toBe('123.45');
    expect(rangeBoundText('-0.5')).toBe('-0.5');
    expect(rangeBoundText('5-')).toBe('5');
    expect(rangeBoundText('1234567890123456789')).toBe('123456789012345');
    expect(rangeBoundText('12.')).toBe('12.');
  });

  it('read a value only from a whole number', () => {
    expect(rangeBoundValue('12.')?.toString()).toBe('12');
    expect(rangeBoundValue('-')).toBeUndefined();
    expect(rangeBoundValue('')).toBeUndefined();
    expect(rangeBoundValue('.5')?.toString()).toBe('0.5');
  });

  it('refuse a minimum above the maximum with the spec message, comparing exactly', () => {
    expect(rangeProblem('10', '2')).toBe(rangeInvertedMessage);
    expect(rangeProblem('0.30000001', '0.3')).toBe(rangeInvertedMessage);
    expect(rangeProblem('2', '10')).toBeNull();
    expect(rangeProblem('2', '2')).toBeNull();
    expect(rangeProblem(undefined, '2')).toBeNull();
    expect(rangeProblem('5', '')).toBeNull();
  });
});

describe('ledger cells', () => {
  const field = (id: string) => ledgerFieldCatalogue.find((f) => f.id === id)!;
  const words: CellWords = { option: (_f, option) => `<${optionLabelKey(_f, option)}>`, day: (day) => `day ${day}`, instant: (iso) => `instant ${iso}` };

  it('write days and instants in the words given, task types (quick tasks too) and states by their catalog keys', () => {
    expect(cellText(words, field('expirationTime'), '2026-11-22')).toBe('day 2026-11-22');
    expect(cellText(words, field('updateTime'), '2026-11-22T08:05:00.000Z')).toBe('instant 2026-11-22T08:05:00.000Z');
    expect(cellText(words, field('taskType'), 'custom')).toBe('<scenes.taskTypes.custom>');
    expect(cellText(words, field('taskState'), TaskState.Success)).toBe('<taskState.completed>');
    expect(cellText(words, field('receivableAmount'), { amount: 1_755_000, unit: 'CNY' })).toBe('17,550.00 CNY');
  });

  it('say -- for a person whose name is not known, rather than an empty cell', () => {
    expect(cellText(words, field('responsiblePerson'), [{ id: 'u1', name: '' }])).toBe('--');
    expect(cellText(words, field('responsiblePerson'), [{ id: 'u1', name: 'Alice' }])).toBe('Alice');
  });

  it('name every task state once: the finished state is "completed" as on the contract tab', () => {
    expect(taskStateKeys[TaskState.Success]).toBe('completed');
    expect(new Set(Object.values(taskStateKeys)).size).toBe(Object.keys(taskStateKeys).length);
  });
});
